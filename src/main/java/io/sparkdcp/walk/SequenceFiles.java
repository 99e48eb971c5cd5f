package io.sparkdcp.walk;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * Hadoop's SequenceFile format, version 6, as a saved listing uses it, read and written without Hadoop: keys and
 * values {@code BytesWritable}, block-compressed with {@code DefaultCodec} (zlib), metadata of text pairs. Byte for
 * byte what Hadoop's {@code SequenceFile.Writer} with {@code CompressionType.BLOCK} writes but for the zlib stream's
 * own bytes, so either reads the other's files: a header ("SEQ", 6, the key and value class names, compressed and
 * block-compressed flags, the codec's class name, the metadata, a 16-byte sync mark), then blocks, each the escape
 * -1 and the sync mark, the record count, and four zlib buffers (key lengths, keys, value lengths, values), each
 * preceded by its compressed length. Integers are Hadoop's variable-length ones ({@code WritableUtils.writeVLong}).
 */
final class SequenceFiles {
    private static final byte[] MAGIC = {'S', 'E', 'Q', 6};
    private static final String BYTES = "org.apache.hadoop.io.BytesWritable";
    private static final String CODEC = "org.apache.hadoop.io.compress.DefaultCodec";
    private static final int SYNC_BYTES = 16;
    private static final int SYNC_ESCAPE = -1;
    /** Hadoop's io.seqfile.compress.blocksize: a block is written once its keys and values hold this many bytes. */
    private static final int BLOCK_BYTES = 1_000_000;

    private SequenceFiles() {}

    /** One file being written; {@link #close} writes the last block and closes the stream. */
    static final class Writer implements Closeable {
        private final DataOutputStream out;
        private final byte[] sync = new byte[SYNC_BYTES];
        private final ByteArrayOutputStream keyLengths = new ByteArrayOutputStream();
        private final ByteArrayOutputStream keys = new ByteArrayOutputStream();
        private final ByteArrayOutputStream valueLengths = new ByteArrayOutputStream();
        private final ByteArrayOutputStream values = new ByteArrayOutputStream();
        private int records;

        Writer(OutputStream file, SortedMap<String, String> metadata) throws IOException {
            out = new DataOutputStream(file);
            new SecureRandom().nextBytes(sync);
            out.write(MAGIC);
            writeText(out, BYTES);
            writeText(out, BYTES);
            out.writeBoolean(true);
            out.writeBoolean(true);
            writeText(out, CODEC);
            out.writeInt(metadata.size());
            for (Map.Entry<String, String> e : metadata.entrySet()) {
                writeText(out, e.getKey());
                writeText(out, e.getValue());
            }
            out.write(sync);
        }

        void append(byte[] key, byte[] value) throws IOException {
            writeBytes(keyLengths, keys, key);
            writeBytes(valueLengths, values, value);
            records++;
            if (keys.size() + values.size() >= BLOCK_BYTES) block();
        }

        private static void writeBytes(ByteArrayOutputStream lengths, ByteArrayOutputStream data, byte[] bytes) throws IOException {
            writeVLong(new DataOutputStream(lengths), 4L + bytes.length);
            DataOutputStream d = new DataOutputStream(data);
            d.writeInt(bytes.length);
            d.write(bytes);
        }

        private void block() throws IOException {
            if (records == 0) return;
            out.writeInt(SYNC_ESCAPE);
            out.write(sync);
            writeVLong(out, records);
            for (ByteArrayOutputStream b : new ByteArrayOutputStream[] {keyLengths, keys, valueLengths, values}) {
                byte[] compressed = deflate(b.toByteArray());
                writeVLong(out, compressed.length);
                out.write(compressed);
                b.reset();
            }
            records = 0;
        }

        @Override
        public void close() throws IOException {
            try (out) {
                block();
            }
        }
    }

    /** One file read: its metadata, then its records in order. */
    static final class Reader implements Closeable {
        private final DataInputStream in;
        private final SortedMap<String, String> metadata = new TreeMap<>();
        private final byte[] sync = new byte[SYNC_BYTES];
        private DataInputStream keyLengths, keys, valueLengths, values;
        private long left;

        /** {@code name} says which file in the errors. */
        Reader(InputStream file, String name) throws IOException {
            in = new DataInputStream(file);
            try {
                byte[] magic = new byte[MAGIC.length];
                in.readFully(magic);
                if (!Arrays.equals(magic, MAGIC)) throw new IOException(name + " is not a SequenceFile of version 6");
                String key = readText(in), value = readText(in);
                if (!key.equals(BYTES) || !value.equals(BYTES)) throw new IOException(name + " holds " + key + " and " + value + ", not " + BYTES);
                boolean compressed = in.readBoolean(), blocks = in.readBoolean();
                if (!compressed || !blocks) throw new IOException(name + " is not block-compressed");
                String codec = readText(in);
                if (!codec.equals(CODEC)) throw new IOException(name + " is compressed with " + codec + ", not " + CODEC);
                int pairs = in.readInt();
                if (pairs < 0) throw new IOException(name + " is damaged (" + pairs + " metadata pairs)");
                for (int i = 0; i < pairs; i++) metadata.put(readText(in), readText(in));
                in.readFully(sync);
            } catch (EOFException e) {
                throw new IOException(name + " is damaged (it ends in its header)", e);
            }
        }

        SortedMap<String, String> metadata() {
            return metadata;
        }

        /** The next record as {key, value}, null after the last. */
        byte[][] next() throws IOException {
            if (left == 0 && !block()) return null;
            left--;
            return new byte[][] {readBytes(keyLengths, keys), readBytes(valueLengths, values)};
        }

        private boolean block() throws IOException {
            int escape;
            try {
                escape = in.readInt();
            } catch (EOFException e) {
                return false;
            }
            byte[] mark = new byte[SYNC_BYTES];
            in.readFully(mark);
            if (escape != SYNC_ESCAPE || !Arrays.equals(mark, sync)) throw new IOException("a block does not start with the file's sync mark");
            left = readVLong(in);
            if (left <= 0) throw new IOException("a block of " + left + " records");
            keyLengths = inflated();
            keys = inflated();
            valueLengths = inflated();
            values = inflated();
            return true;
        }

        private DataInputStream inflated() throws IOException {
            long length = readVLong(in);
            if (length < 0 || length > Integer.MAX_VALUE - 8) throw new IOException("a compressed buffer of " + length + " bytes");
            byte[] compressed = new byte[(int) length];
            in.readFully(compressed);
            return new DataInputStream(new ByteArrayInputStream(inflate(compressed)));
        }

        private static byte[] readBytes(DataInputStream lengths, DataInputStream data) throws IOException {
            long length = readVLong(lengths);
            int size = data.readInt();
            if (size < 0 || size + 4L != length) throw new IOException("a record of " + size + " bytes filed as " + length);
            byte[] bytes = new byte[size];
            data.readFully(bytes);
            return bytes;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }

    private static byte[] deflate(byte[] bytes) {
        Deflater deflater = new Deflater();
        try {
            deflater.setInput(bytes);
            deflater.finish();
            ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length / 4 + 64);
            byte[] buffer = new byte[1 << 16];
            while (!deflater.finished()) out.write(buffer, 0, deflater.deflate(buffer));
            return out.toByteArray();
        } finally {
            deflater.end();
        }
    }

    private static byte[] inflate(byte[] compressed) throws IOException {
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(compressed);
            ByteArrayOutputStream out = new ByteArrayOutputStream(compressed.length * 4 + 64);
            byte[] buffer = new byte[1 << 16];
            while (!inflater.finished()) {
                int n = inflater.inflate(buffer);
                if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) throw new IOException("a compressed buffer ends early");
                out.write(buffer, 0, n);
            }
            return out.toByteArray();
        } catch (DataFormatException e) {
            throw new IOException("a compressed buffer is damaged: " + e.getMessage(), e);
        } finally {
            inflater.end();
        }
    }

    /** Hadoop's Text: its UTF-8 bytes after their length. */
    private static void writeText(DataOutput out, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        writeVLong(out, bytes.length);
        out.write(bytes);
    }

    private static String readText(DataInputStream in) throws IOException {
        long length = readVLong(in);
        if (length < 0 || length > 1 << 26) throw new IOException("a text of " + length + " bytes");
        byte[] bytes = new byte[(int) length];
        in.readFully(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** Hadoop's WritableUtils.writeVLong: -112..127 in one byte, else a byte of sign and length, then the bytes, high first. */
    static void writeVLong(DataOutput out, long value) throws IOException {
        if (value >= -112 && value <= 127) {
            out.writeByte((int) value);
            return;
        }
        int length = -112;
        if (value < 0) {
            value ^= -1L;
            length = -120;
        }
        for (long rest = value; rest != 0; rest >>= 8) length--;
        out.writeByte(length);
        int bytes = length < -120 ? -(length + 120) : -(length + 112);
        for (int i = bytes; i != 0; i--) out.writeByte((int) (value >> ((i - 1) * 8)));
    }

    static long readVLong(DataInput in) throws IOException {
        byte first = in.readByte();
        if (first >= -112) return first;
        boolean negative = first < -120;
        int bytes = negative ? -120 - first : -112 - first;
        long value = 0;
        for (int i = 0; i < bytes; i++) value = (value << 8) | (in.readByte() & 0xFF);
        return negative ? ~value : value;
    }
}

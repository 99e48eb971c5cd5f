package io.sparkdcp.walk;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableUtils;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.SortedMap;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The saved listing's SequenceFiles, written and read without Hadoop, are Hadoop's: each reads what the other wrote. */
@Tag("fast")
class SequenceFilesTest {
    @TempDir
    Path tmp;

    /** Records of every size from empty to past a block (1,000,000 bytes of keys and values), some incompressible. */
    private static List<byte[][]> records() {
        Random random = new Random(41);
        List<byte[][]> records = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            byte[] key = ("dir/" + i).getBytes();
            byte[] value = new byte[i == 7 ? 0 : random.nextInt(i % 50 == 0 ? 300_000 : 2_000)];
            if (i % 2 == 0) random.nextBytes(value);
            records.add(new byte[][] {key, value});
        }
        return records;
    }

    private static SortedMap<String, String> metadata() {
        SortedMap<String, String> meta = new TreeMap<>();
        meta.put("spark-dcp.format", "spark-dcp-listing-3");
        meta.put("spark-dcp.error.0", "a/b\topenat\tEACCES\tPermission denied, café");
        return meta;
    }

    @Test
    void whatItWritesHadoopReads() throws IOException {
        Path file = tmp.resolve("ours");
        try (OutputStream out = Files.newOutputStream(file); SequenceFiles.Writer w = new SequenceFiles.Writer(out, metadata())) {
            for (byte[][] r : records()) w.append(r[0], r[1]);
        }
        try (SequenceFile.Reader r = new SequenceFile.Reader(new Configuration(), SequenceFile.Reader.file(new org.apache.hadoop.fs.Path(file.toUri())))) {
            assertEquals(SequenceFile.CompressionType.BLOCK, r.getCompressionType());
            TreeMap<Text, Text> meta = r.getMetadata().getMetadata();
            assertEquals(metadata().size(), meta.size());
            for (var e : metadata().entrySet()) assertEquals(e.getValue(), meta.get(new Text(e.getKey())).toString());
            BytesWritable key = new BytesWritable(), value = new BytesWritable();
            for (byte[][] expected : records()) {
                assertEquals(true, r.next(key, value));
                assertArrayEquals(expected[0], key.copyBytes());
                assertArrayEquals(expected[1], value.copyBytes());
            }
            assertEquals(false, r.next(key, value));
        }
    }

    @Test
    void whatHadoopWritesItReads() throws IOException {
        Path file = tmp.resolve("hadoop");
        TreeMap<Text, Text> meta = new TreeMap<>();
        for (var e : metadata().entrySet()) meta.put(new Text(e.getKey()), new Text(e.getValue()));
        try (SequenceFile.Writer w = SequenceFile.createWriter(new Configuration(),
                SequenceFile.Writer.file(new org.apache.hadoop.fs.Path(file.toUri())),
                SequenceFile.Writer.keyClass(BytesWritable.class), SequenceFile.Writer.valueClass(BytesWritable.class),
                SequenceFile.Writer.compression(SequenceFile.CompressionType.BLOCK),
                SequenceFile.Writer.metadata(new SequenceFile.Metadata(meta)))) {
            for (byte[][] r : records()) w.append(new BytesWritable(r[0]), new BytesWritable(r[1]));
        }
        try (InputStream in = Files.newInputStream(file); SequenceFiles.Reader r = new SequenceFiles.Reader(in, "hadoop")) {
            assertEquals(metadata(), r.metadata());
            for (byte[][] expected : records()) {
                byte[][] got = r.next();
                assertArrayEquals(expected[0], got[0]);
                assertArrayEquals(expected[1], got[1]);
            }
            assertNull(r.next());
        }
    }

    @Test
    void aFileWithNoRecordsIsItsHeader() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new SequenceFiles.Writer(bytes, metadata()).close();
        try (SequenceFiles.Reader r = new SequenceFiles.Reader(new ByteArrayInputStream(bytes.toByteArray()), "empty")) {
            assertEquals(metadata(), r.metadata());
            assertNull(r.next());
        }
    }

    @Test
    void aFileCutShortOrChangedIsAnIOException() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (SequenceFiles.Writer w = new SequenceFiles.Writer(bytes, metadata())) {
            for (byte[][] r : records().subList(0, 5)) w.append(r[0], r[1]);
        }
        byte[] whole = bytes.toByteArray();
        for (int cut = 1; cut < whole.length; cut += Math.max(1, whole.length / 97)) {
            byte[] part = Arrays.copyOf(whole, cut);
            assertThrows(IOException.class, () -> readAll(part), "cut at " + cut + " of " + whole.length);
        }
        byte[] changed = whole.clone();
        changed[changed.length - 20] ^= 1;
        assertThrows(IOException.class, () -> readAll(changed), "a changed byte in the last compressed buffer");
    }

    private static void readAll(byte[] file) throws IOException {
        try (SequenceFiles.Reader r = new SequenceFiles.Reader(new ByteArrayInputStream(file), "file")) {
            while (r.next() != null) {
                // read to the end
            }
        }
    }

    @Test
    void itsVariableLengthIntegersAreHadoops() throws IOException {
        long[] values = {0, 1, -1, 127, 128, -112, -113, -120, -121, 255, 256, 65_535, 65_536, Integer.MAX_VALUE, Integer.MIN_VALUE,
                Long.MAX_VALUE, Long.MIN_VALUE, 1_000_000, -1_000_000};
        for (long v : values) {
            ByteArrayOutputStream ours = new ByteArrayOutputStream(), hadoops = new ByteArrayOutputStream();
            SequenceFiles.writeVLong(new DataOutputStream(ours), v);
            WritableUtils.writeVLong(new DataOutputStream(hadoops), v);
            assertArrayEquals(hadoops.toByteArray(), ours.toByteArray(), "value " + v);
            assertEquals(v, SequenceFiles.readVLong(new DataInputStream(new ByteArrayInputStream(ours.toByteArray()))));
        }
    }
}

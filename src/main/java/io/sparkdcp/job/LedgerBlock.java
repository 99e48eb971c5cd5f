package io.sparkdcp.job;

import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.Stat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the state ledger ({@code --state}) holds of one directory, keyed by its path as a listing's
 * {@code DirectoryBlock} is: the directory itself (an entry with an empty name) and its entries that are not
 * directories, each with both sides' stats as a successful run left them.
 */
public record LedgerBlock(byte[] path, List<Entry> entries) implements Serializable {

    /** What proves an inode unchanged: ctime moves on every change of data or metadata, and no user can set it. */
    public record Seen(long ino, long size, long mtimeNanos, long ctimeNanos) implements Serializable {
        public static Seen of(Stat s) {
            return new Seen(s.ino(), s.size(), s.mtimeSec() * 1_000_000_000L + s.mtimeNsec(), s.ctimeSec() * 1_000_000_000L + s.ctimeNsec());
        }
    }

    /** One entry by its name in the directory (empty: the directory itself), of its type, as SRC and DST held it. */
    public record Entry(byte[] name, FileType type, Seen source, Seen destination) implements Serializable {
        /** True when both sides are as recorded: nothing about this entry changed since. */
        public boolean holds(Stat source, Stat destination) {
            return source.type() == type && destination.type() == type
                    && Seen.of(source).equals(this.source) && Seen.of(destination).equals(this.destination);
        }
    }

    /** The entries by name. */
    public Map<ByteBuffer, Entry> byName() {
        Map<ByteBuffer, Entry> out = new HashMap<>(entries.size() * 2);
        for (Entry e : entries) out.put(ByteBuffer.wrap(e.name()), e);
        return out;
    }

    public byte[] toBytes() {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(32 + entries.size() * 80);
            DataOutputStream out = new DataOutputStream(bytes);
            writeBytes(out, path);
            out.writeInt(entries.size());
            for (Entry e : entries) {
                writeBytes(out, e.name());
                out.writeByte(e.type().ordinal());
                writeSeen(out, e.source());
                writeSeen(out, e.destination());
            }
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static LedgerBlock fromBytes(byte[] bytes) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            byte[] path = readBytes(in);
            int count = in.readInt();
            List<Entry> entries = new ArrayList<>(count);
            FileType[] types = FileType.values();
            for (int i = 0; i < count; i++) entries.add(new Entry(readBytes(in), types[in.readByte()], readSeen(in), readSeen(in)));
            if (in.available() > 0) throw new IllegalArgumentException("corrupt state ledger: bytes after the last entry");
            return new LedgerBlock(path, entries);
        } catch (IOException | ArrayIndexOutOfBoundsException e) {
            throw new IllegalArgumentException("corrupt state ledger: " + e.getMessage(), e);
        }
    }

    private static void writeBytes(DataOutputStream out, byte[] b) throws IOException {
        out.writeInt(b.length);
        out.write(b);
    }

    private static byte[] readBytes(DataInputStream in) throws IOException {
        byte[] b = new byte[in.readInt()];
        in.readFully(b);
        return b;
    }

    private static void writeSeen(DataOutputStream out, Seen s) throws IOException {
        out.writeLong(s.ino());
        out.writeLong(s.size());
        out.writeLong(s.mtimeNanos());
        out.writeLong(s.ctimeNanos());
    }

    private static Seen readSeen(DataInputStream in) throws IOException {
        return new Seen(in.readLong(), in.readLong(), in.readLong(), in.readLong());
    }
}

package io.sparkdcp.job.ledger;

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
 *
 * <p>Its bytes (inside a part file, see {@link StateLedger}): the path and the entry count, then per entry its
 * name, its type as the POSIX {@code S_IFMT} bits shifted right by 12 (8 file, 4 directory, 10 symlink, 1 FIFO,
 * 2 character device, 6 block device, 12 socket: fixed by POSIX, not by the order of an enum), and each side's
 * {@link Seen}. Byte strings are a big-endian int length and the bytes; numbers are big-endian.
 */
public record LedgerBlock(byte[] path, List<Entry> entries) implements Serializable {
    /**
     * What proves an inode unchanged: ctime moves on every change of data or metadata, and no user can set it; the
     * stat's own fields (owner, mode, links, device number) catch a change made within the ctime's granularity.
     */
    public record Seen(long ino, long size, long mtimeNanos, long ctimeNanos, int mode, int uid, int gid, long nlink, long rdev)
            implements Serializable {
        public static Seen of(Stat s) {
            return new Seen(s.ino(), s.size(), s.mtimeSec() * 1_000_000_000L + s.mtimeNsec(), s.ctimeSec() * 1_000_000_000L + s.ctimeNsec(),
                    s.permissions(), s.uid(), s.gid(), s.nlink(), s.rdev());
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

    /**
     * Whether a stat taken at {@code seenAtNanos} (wall clock) shows a ctime that any later change moves: the
     * ctime's granule is over. A file system that keeps whole seconds (ext4 with 128-byte inodes, many NFS
     * servers; FAT keeps 2 s) gives every change within a second the same ctime, so a record taken in that second
     * could not tell a change made later in it. A ctime of whole seconds is taken for that kind (on a finer one,
     * one ctime in a billion is, and waits for nothing worse than a look in full next time). Finer ctimes are
     * taken as exact: since Linux 6.13 XFS, ext4, btrfs and tmpfs give an inode whose ctime was read a newer one
     * at its next change; they need only be earlier than the stat.
     */
    public static boolean settled(long ctimeNanos, long seenAtNanos) {
        return seenAtNanos - ctimeNanos >= granule(ctimeNanos);
    }

    /** The granule a ctime may be one of: 2 s for whole seconds (FAT's steps included), else a nanosecond. */
    static long granule(long ctimeNanos) {
        return ctimeNanos % 1_000_000_000L == 0 ? 2_000_000_000L : 1;
    }

    /** The entries by name. */
    public Map<ByteBuffer, Entry> byName() {
        Map<ByteBuffer, Entry> out = new HashMap<>(entries.size() * 2);
        for (Entry e : entries) out.put(ByteBuffer.wrap(e.name()), e);
        return out;
    }

    public byte[] toBytes() {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(32 + entries.size() * 120);
            DataOutputStream out = new DataOutputStream(bytes);
            writeBytes(out, path);
            out.writeInt(entries.size());
            for (Entry e : entries) {
                writeBytes(out, e.name());
                out.writeByte(typeCode(e.type()));
                writeSeen(out, e.source());
                writeSeen(out, e.destination());
            }
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A block from its bytes; an IllegalArgumentException names what is wrong with bytes that are not one. */
    public static LedgerBlock fromBytes(byte[] bytes) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            byte[] path = readBytes(in, bytes.length);
            int count = in.readInt();
            if (count < 0 || count > bytes.length) throw new IOException("a block claims " + count + " entries");
            List<Entry> entries = new ArrayList<>(count);
            for (int i = 0; i < count; i++) entries.add(new Entry(readBytes(in, bytes.length), typeOf(in.readByte()), readSeen(in), readSeen(in)));
            if (in.available() > 0) throw new IOException("bytes after a block's last entry");
            return new LedgerBlock(path, entries);
        } catch (java.io.EOFException e) {
            throw new IllegalArgumentException("corrupt state ledger: a block ends inside an entry", e);
        } catch (IOException e) {
            throw new IllegalArgumentException("corrupt state ledger: " + e.getMessage(), e);
        }
    }

    /** The type's code in the ledger: POSIX's S_IFMT bits, which no reordering of {@link FileType} changes. */
    static int typeCode(FileType type) {
        return type.formatBits() >>> 12;
    }

    static FileType typeOf(int code) throws IOException {
        try {
            return FileType.ofMode((code & 0xff) << 12);
        } catch (IllegalArgumentException e) {
            throw new IOException("unknown entry type code " + (code & 0xff));
        }
    }

    private static void writeBytes(DataOutputStream out, byte[] b) throws IOException {
        out.writeInt(b.length);
        out.write(b);
    }

    private static byte[] readBytes(DataInputStream in, int limit) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > limit) throw new IOException("a name of " + length + " bytes");
        byte[] b = new byte[length];
        in.readFully(b);
        return b;
    }

    private static void writeSeen(DataOutputStream out, Seen s) throws IOException {
        out.writeLong(s.ino());
        out.writeLong(s.size());
        out.writeLong(s.mtimeNanos());
        out.writeLong(s.ctimeNanos());
        out.writeInt(s.mode());
        out.writeInt(s.uid());
        out.writeInt(s.gid());
        out.writeLong(s.nlink());
        out.writeLong(s.rdev());
    }

    private static Seen readSeen(DataInputStream in) throws IOException {
        return new Seen(in.readLong(), in.readLong(), in.readLong(), in.readLong(), in.readInt(), in.readInt(), in.readInt(),
                in.readLong(), in.readLong());
    }
}

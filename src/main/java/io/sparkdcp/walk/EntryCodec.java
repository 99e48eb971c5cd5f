package io.sparkdcp.walk;

import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.FsXattr;
import io.sparkdcp.posix.Stat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The packed form of one entry, as a listing holds it and a saved listing stores it (format 1,
 * little-endian): a varint name length and the name's bytes, then fixed-width metadata —
 * mode u16 (type and permissions), flags u8 (bit 0: project follows), uid, gid, nlink i32,
 * size, blocks, dev, ino, rdev i64, atime i64+i32, mtime i64+i32 — and, when flagged, the
 * project's xflags and projid i32. 79 bytes plus the name, or 87 with a project.
 */
final class EntryCodec {
    private EntryCodec() {}

    private static final int HAS_PROJECT = 1;
    static final int FIXED = 79;

    /** Appends one entry to a growable buffer. */
    static final class Writer {
        private ByteBuffer buf = ByteBuffer.allocate(256).order(ByteOrder.LITTLE_ENDIAN);

        Writer putEntry(byte[] name, Stat s, FsXattr project) {
            return putName(name).putRecord(s, project);
        }

        /** Metadata without a name: a directory's own record in its block. */
        Writer putRecord(Stat s, FsXattr project) {
            room(FIXED + 8);
            buf.putShort((short) (s.type().formatBits() | s.permissions()));
            buf.put((byte) (project != null ? HAS_PROJECT : 0));
            buf.putInt(s.uid()).putInt(s.gid()).putInt((int) Math.min(Integer.MAX_VALUE, s.nlink()));
            buf.putLong(s.size()).putLong(s.blocks()).putLong(s.dev()).putLong(s.ino()).putLong(s.rdev());
            buf.putLong(s.atimeSec()).putInt(s.atimeNsec()).putLong(s.mtimeSec()).putInt(s.mtimeNsec());
            if (project != null) buf.putInt(project.xflags()).putInt(project.projid());
            return this;
        }

        Writer putName(byte[] name) {
            putVarint(name.length);
            room(name.length);
            buf.put(name);
            return this;
        }

        Writer putVarint(int v) {
            room(5);
            while ((v & ~0x7F) != 0) {
                buf.put((byte) ((v & 0x7F) | 0x80));
                v >>>= 7;
            }
            buf.put((byte) v);
            return this;
        }

        int position() { return buf.position(); }

        byte[] toBytes() { return Arrays.copyOf(buf.array(), buf.position()); }

        private void room(int n) {
            if (buf.remaining() >= n) return;
            ByteBuffer bigger = ByteBuffer.allocate(Math.max(buf.capacity() * 2, buf.position() + n)).order(ByteOrder.LITTLE_ENDIAN);
            buf.flip();
            bigger.put(buf);
            buf = bigger;
        }
    }

    /** Reads entries from packed bytes, each relative to the directory that holds it. */
    static final class Reader {
        private final ByteBuffer buf;

        Reader(byte[] bytes, int offset, int end) {
            this.buf = ByteBuffer.wrap(bytes, 0, end).order(ByteOrder.LITTLE_ENDIAN);
            buf.position(offset);
        }

        boolean hasMore() { return buf.hasRemaining(); }

        int position() { return buf.position(); }

        /** The next entry, named {@code parent/name}. */
        Entry entry(byte[] parent) {
            byte[] name = name();
            return new Entry(parent == null ? name : io.sparkdcp.posix.PathBytes.join(parent, name), stat(), projectIfFlagged());
        }

        /** Skips the next entry, returning its name. */
        byte[] skipEntry() {
            byte[] name = name();
            int flags = buf.get(buf.position() + 2);
            buf.position(buf.position() + FIXED + ((flags & HAS_PROJECT) != 0 ? 8 : 0));
            return name;
        }

        byte[] name() {
            int n = varint();
            if (n < 0 || n > buf.remaining()) throw corrupt("a name of " + n + " bytes");
            byte[] name = new byte[n];
            buf.get(name);
            return name;
        }

        /** Metadata without a name: a directory's own record in its block. */
        Entry record(byte[] path) {
            return new Entry(path, stat(), projectIfFlagged());
        }

        private int flags;

        private Stat stat() {
            if (buf.remaining() < FIXED) throw corrupt("a record cut short");
            int mode = buf.getShort() & 0xFFFF;
            flags = buf.get();
            int uid = buf.getInt(), gid = buf.getInt(), nlink = buf.getInt();
            long size = buf.getLong(), blocks = buf.getLong(), dev = buf.getLong(), ino = buf.getLong(), rdev = buf.getLong();
            long atime = buf.getLong();
            int atimeNsec = buf.getInt();
            long mtime = buf.getLong();
            int mtimeNsec = buf.getInt();
            return new Stat(FileType.ofMode(mode), mode & 07777, uid, gid, size, blocks, nlink, dev, ino, rdev,
                    atime, atimeNsec, mtime, mtimeNsec);
        }

        private FsXattr projectIfFlagged() {
            if ((flags & HAS_PROJECT) == 0) return null;
            return new FsXattr(buf.getInt(), 0, 0, buf.getInt(), 0);
        }

        int varint() {
            int v = 0;
            for (int shift = 0; shift < 35; shift += 7) {
                byte b = buf.get();
                v |= (b & 0x7F) << shift;
                if (b >= 0) return v;
            }
            throw corrupt("a varint longer than 5 bytes");
        }

        private static IllegalArgumentException corrupt(String what) {
            return new IllegalArgumentException("corrupt listing data: " + what);
        }
    }
}

package io.sparkdcp.walk;

import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.FsXattr;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.Stat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The packed form of one entry, as a listing holds it and a saved listing stores it (format 2,
 * little-endian): a varint name length and the name's bytes, then fixed-width metadata —
 * mode u16 (type and permissions), flags u8 (bit 0: project follows; bits 1, 2: immutable, append-only), uid, gid, nlink i32,
 * size, blocks, dev, ino, rdev i64, atime, mtime, ctime i64+i32 — and, when flagged, the
 * project's xflags and projid i32. 91 bytes plus the name, or 99 with a project.
 */
final class EntryCodec {
    private EntryCodec() {}

    private static final int HAS_PROJECT = 1;
    private static final int IMMUTABLE = 2;
    private static final int APPEND = 4;
    static final int FIXED = 91;

    private static final java.lang.invoke.VarHandle SHORT = java.lang.invoke.MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final java.lang.invoke.VarHandle INT = java.lang.invoke.MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final java.lang.invoke.VarHandle LONG = java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** Appends entries to a growable byte array. */
    static final class Writer {
        private byte[] buf;
        private int pos;

        Writer(int expectedBytes) {
            buf = new byte[Math.max(64, expectedBytes)];
        }

        Writer putEntry(byte[] name, Stat s, FsXattr project) {
            return putName(name).putRecord(s, project);
        }

        /** Metadata without a name: a directory's own record in its block. */
        Writer putRecord(Stat s, FsXattr project) {
            room(FIXED + 8);
            SHORT.set(buf, pos, (short) (s.type().formatBits() | s.permissions()));
            buf[pos + 2] = (byte) ((project != null ? HAS_PROJECT : 0)
                    | ((s.locks() & Linux.FS_XFLAG_IMMUTABLE) != 0 ? IMMUTABLE : 0)
                    | ((s.locks() & Linux.FS_XFLAG_APPEND) != 0 ? APPEND : 0));
            pos += 3;
            putInt(s.uid()).putInt(s.gid()).putInt((int) Math.min(Integer.MAX_VALUE, s.nlink()));
            putLong(s.size()).putLong(s.blocks()).putLong(s.dev()).putLong(s.ino()).putLong(s.rdev());
            putLong(s.atimeSec()).putInt(s.atimeNsec()).putLong(s.mtimeSec()).putInt(s.mtimeNsec())
                    .putLong(s.ctimeSec()).putInt(s.ctimeNsec());
            if (project != null) putInt(project.xflags()).putInt(project.projid());
            return this;
        }

        Writer putName(byte[] name) {
            putVarint(name.length);
            room(name.length);
            System.arraycopy(name, 0, buf, pos, name.length);
            pos += name.length;
            return this;
        }

        Writer putVarint(int v) {
            room(5);
            while ((v & ~0x7F) != 0) {
                buf[pos++] = (byte) ((v & 0x7F) | 0x80);
                v >>>= 7;
            }
            buf[pos++] = (byte) v;
            return this;
        }

        private Writer putInt(int v) {
            INT.set(buf, pos, v);
            pos += 4;
            return this;
        }

        private Writer putLong(long v) {
            LONG.set(buf, pos, v);
            pos += 8;
            return this;
        }

        int position() { return pos; }

        byte[] toBytes() { return Arrays.copyOf(buf, pos); }

        private void room(int n) {
            if (buf.length - pos < n) buf = Arrays.copyOf(buf, Math.max(buf.length * 2, pos + n));
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
            long ctime = buf.getLong();
            int ctimeNsec = buf.getInt();
            return Stat.of(FileType.ofMode(mode)).permissions(mode & 07777).uid(uid).gid(gid).size(size).blocks(blocks).nlink(nlink)
                    .dev(dev).ino(ino).rdev(rdev).atime(atime, atimeNsec).mtime(mtime, mtimeNsec).ctime(ctime, ctimeNsec)
                    .locks(((flags & IMMUTABLE) != 0 ? Linux.FS_XFLAG_IMMUTABLE : 0) | ((flags & APPEND) != 0 ? Linux.FS_XFLAG_APPEND : 0))
                    .build();
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

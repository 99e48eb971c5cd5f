package io.sparkdcp.posix;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** The layout of struct statx (include/uapi/linux/stat.h) and its decoding into a {@link Stat}. */
final class Statx {
    private Statx() {}

    /** The struct is 256 bytes; the kernel fills the fields that STATX_BASIC_STATS asks for. */
    static final int SIZE = 256;

    private static final int ATTRIBUTES = 8;      // __u64 stx_attributes
    private static final int NLINK = 16;          // __u32 stx_nlink
    private static final int UID = 20;            // __u32 stx_uid
    private static final int GID = 24;            // __u32 stx_gid
    private static final int MODE = 28;           // __u16 stx_mode
    private static final int INO = 32;            // __u64 stx_ino
    private static final int SIZE_BYTES = 40;     // __u64 stx_size
    private static final int BLOCKS = 48;         // __u64 stx_blocks
    private static final int ATIME = 64;          // struct statx_timestamp: __s64 tv_sec, then __u32 tv_nsec
    private static final int CTIME = 96;
    private static final int MTIME = 112;
    private static final int TV_NSEC = 8;         // within a statx_timestamp
    private static final int RDEV_MAJOR = 128;    // __u32, and the minor after it
    private static final int DEV_MAJOR = 136;     // __u32, and the minor after it
    private static final int MINOR = 4;           // a minor's offset from its major

    static Stat decode(byte[] raw) {
        ByteBuffer b = ByteBuffer.wrap(raw).order(ByteOrder.nativeOrder());
        int mode = b.getShort(MODE) & 0xffff;
        // The canonical constructor, not Stat's builder: on every stat of a copy, and C1 (the local launcher's
        // compiler) does not scalar-replace a builder; the named locals keep the order checkable.
        int permissions = mode & Linux.PERMISSION_BITS;
        long dev = Linux.makedev(unsigned(b, DEV_MAJOR), unsigned(b, DEV_MAJOR + MINOR));
        long rdev = Linux.makedev(unsigned(b, RDEV_MAJOR), unsigned(b, RDEV_MAJOR + MINOR));
        return new Stat(FileType.ofMode(mode), permissions, b.getInt(UID), b.getInt(GID), b.getLong(SIZE_BYTES),
                b.getLong(BLOCKS), unsigned(b, NLINK), dev, b.getLong(INO), rdev,
                b.getLong(ATIME), b.getInt(ATIME + TV_NSEC), b.getLong(MTIME), b.getInt(MTIME + TV_NSEC),
                b.getLong(CTIME), b.getInt(CTIME + TV_NSEC), locks(b.getLong(ATTRIBUTES)));
    }

    private static int locks(long attributes) {
        return ((attributes & Linux.STATX_ATTR_IMMUTABLE) != 0 ? Linux.FS_XFLAG_IMMUTABLE : 0)
                | ((attributes & Linux.STATX_ATTR_APPEND) != 0 ? Linux.FS_XFLAG_APPEND : 0);
    }

    private static long unsigned(ByteBuffer b, int offset) {
        return b.getInt(offset) & 0xffffffffL;
    }
}

package io.sparkdcp.posix;

/** Linux constants. Open flags differ between x86_64 and aarch64; everything else here is shared. */
public final class Linux {
    private Linux() {}

    private static final boolean AARCH64 = "aarch64".equals(System.getProperty("os.arch"));

    public static final int O_RDONLY = 0;
    public static final int O_WRONLY = 1;
    public static final int O_RDWR = 2;
    public static final int O_CREAT = 0100;
    public static final int O_EXCL = 0200;
    public static final int O_NOCTTY = 0400;
    /** O_ASYNC, FASYNC: the same on x86_64 and aarch64. */
    public static final int O_ASYNC = 020000;
    /**
     * Lustre's O_LOV_DELAY_CREATE (lustre_user.h): the MDS creates the file without OST objects, so
     * a layout can still be set on the descriptor before the first write. Harmless elsewhere: open(2)
     * ignores O_ASYNC on regular files and O_NOCTTY on anything but a terminal.
     */
    public static final int O_LOV_DELAY_CREATE = O_NOCTTY | O_ASYNC;
    public static final int O_TRUNC = 01000;
    public static final int O_NONBLOCK = 04000;
    public static final int O_DIRECTORY = AARCH64 ? 040000 : 0200000;
    public static final int O_NOFOLLOW = AARCH64 ? 0100000 : 0400000;
    /** futimens: leave this time as it is. */
    public static final int UTIME_OMIT = (1 << 30) - 2;
    public static final int O_NOATIME = 01000000;
    public static final int O_CLOEXEC = 02000000;
    /** An unnamed file in the given directory (__O_TMPFILE | O_DIRECTORY). */
    public static final int O_TMPFILE = 020000000 | O_DIRECTORY;

    public static final int F_SETFL = 4;
    /** The longest path a system call takes, its terminating NUL included. */
    public static final int PATH_MAX = 4096;

    public static final int AT_FDCWD = -100;
    public static final int AT_SYMLINK_NOFOLLOW = 0x100;
    public static final int AT_REMOVEDIR = 0x200;
    public static final int AT_SYMLINK_FOLLOW = 0x400;
    public static final int AT_EMPTY_PATH = 0x1000;
    static final int RENAME_NOREPLACE = 1;

    static final int STATX_BASIC_STATS = 0x7ff;
    static final int STATX_MNT_ID = 0x1000;
    static final int STATX_MNT_ID_UNIQUE = 0x4000; // Linux 6.8
    static final int LOCK_SH = 1;
    static final int LOCK_EX = 2;
    static final int LOCK_NB = 4;
    static final long SYS_OPENAT2 = 437; // same number on x86_64 and aarch64
    static final long RESOLVE_NO_MAGICLINKS = 0x02;
    static final long RESOLVE_NO_SYMLINKS = 0x04;
    static final long RESOLVE_BENEATH = 0x08;

    public static final int SEEK_SET = 0;
    public static final int SEEK_DATA = 3;
    public static final int SEEK_HOLE = 4;

    public static final long FS_IOC_FSGETXATTR = 0x801c581fL; // _IOR('X', 31, struct fsxattr)
    public static final long FS_IOC_FSSETXATTR = 0x401c5820L; // _IOW('X', 32, struct fsxattr)
    public static final int FS_XFLAG_PROJINHERIT = 0x200;
    // The other fsx_xflags bits (include/uapi/linux/fs.h); the copy keeps those a user sets.
    public static final int FS_XFLAG_REALTIME = 0x1;
    public static final int FS_XFLAG_IMMUTABLE = 0x8;
    public static final int FS_XFLAG_APPEND = 0x10;
    public static final int FS_XFLAG_SYNC = 0x20;
    public static final int FS_XFLAG_NOATIME = 0x40;
    public static final int FS_XFLAG_NODUMP = 0x80;
    public static final int FS_XFLAG_RTINHERIT = 0x100;
    public static final int FS_XFLAG_NOSYMLINKS = 0x400;
    public static final int FS_XFLAG_EXTSIZE = 0x800;
    public static final int FS_XFLAG_EXTSZINHERIT = 0x1000;
    public static final int FS_XFLAG_NODEFRAG = 0x2000;
    public static final int FS_XFLAG_FILESTREAM = 0x4000;
    public static final int FS_XFLAG_DAX = 0x8000;
    public static final int FS_XFLAG_COWEXTSIZE = 0x10000;
    /** statx stx_attributes bits (include/uapi/linux/stat.h). */
    static final long STATX_ATTR_IMMUTABLE = 0x10;
    static final long STATX_ATTR_APPEND = 0x20;

    public static final int S_IFMT = 0170000;
    public static final int S_IFSOCK = 0140000;
    public static final int S_IFLNK = 0120000;
    public static final int S_IFREG = 0100000;
    public static final int S_IFBLK = 060000;
    public static final int S_IFDIR = 040000;
    public static final int S_IFCHR = 020000;
    public static final int S_IFIFO = 010000;
    public static final int S_ISGID = 02000;
    public static final int PERMISSION_BITS = 07777;

    public static final int DT_UNKNOWN = 0;
    public static final int DT_DIR = 4;
    public static final int DT_REG = 8;

    /** glibc's makedev for a 64-bit dev_t. */
    public static long makedev(long major, long minor) {
        return ((major & 0xfffff000L) << 32) | ((major & 0xfffL) << 8)
                | ((minor & 0xffffff00L) << 12) | (minor & 0xffL);
    }
}

package io.sparkdcp.posix;

import java.util.Map;

/** The errno values the engine acts on, and names for messages (asm-generic numbering). */
public final class Errno {
    private Errno() {}

    public static final int EPERM = 1;
    public static final int ENOENT = 2;
    public static final int EINTR = 4;
    public static final int EIO = 5;
    public static final int ENXIO = 6;
    public static final int EBADF = 9;
    public static final int EAGAIN = 11;
    public static final int EACCES = 13;
    public static final int EBUSY = 16;
    public static final int EEXIST = 17;
    public static final int EXDEV = 18;
    public static final int ENOTDIR = 20;
    public static final int EISDIR = 21;
    public static final int EINVAL = 22;
    public static final int ENOTTY = 25;
    public static final int EFBIG = 27;
    public static final int ENOSPC = 28;
    public static final int EROFS = 30;
    public static final int EMLINK = 31;
    public static final int ERANGE = 34;
    public static final int ENAMETOOLONG = 36;
    public static final int ENOLCK = 37;
    public static final int ENOSYS = 38;
    public static final int ENOTEMPTY = 39;
    public static final int ELOOP = 40;
    public static final int ENODATA = 61;
    public static final int EOPNOTSUPP = 95;
    public static final int ESTALE = 116;
    public static final int EDQUOT = 122;

    private static final Map<Integer, String> NAMES = Map.ofEntries(
            Map.entry(EPERM, "EPERM"), Map.entry(ENOENT, "ENOENT"), Map.entry(EINTR, "EINTR"),
            Map.entry(EIO, "EIO"), Map.entry(ENXIO, "ENXIO"), Map.entry(EBADF, "EBADF"), Map.entry(EAGAIN, "EAGAIN"),
            Map.entry(EACCES, "EACCES"), Map.entry(EEXIST, "EEXIST"), Map.entry(EXDEV, "EXDEV"),
            Map.entry(ENOTDIR, "ENOTDIR"), Map.entry(EISDIR, "EISDIR"), Map.entry(EINVAL, "EINVAL"),
            Map.entry(ENOTTY, "ENOTTY"), Map.entry(EFBIG, "EFBIG"), Map.entry(ENOSPC, "ENOSPC"),
            Map.entry(EROFS, "EROFS"), Map.entry(EMLINK, "EMLINK"), Map.entry(ERANGE, "ERANGE"),
            Map.entry(ENAMETOOLONG, "ENAMETOOLONG"), Map.entry(ENOSYS, "ENOSYS"),
            Map.entry(ENOTEMPTY, "ENOTEMPTY"), Map.entry(ELOOP, "ELOOP"), Map.entry(ENODATA, "ENODATA"),
            Map.entry(EOPNOTSUPP, "EOPNOTSUPP"), Map.entry(EDQUOT, "EDQUOT"),
            Map.entry(12, "ENOMEM"), Map.entry(EBUSY, "EBUSY"), Map.entry(ENOLCK, "ENOLCK"), Map.entry(24, "EMFILE"),
            Map.entry(26, "ETXTBSY"), Map.entry(ESTALE, "ESTALE"), Map.entry(110, "ETIMEDOUT"),
            Map.entry(7, "E2BIG"));

    public static String name(int errno) {
        return NAMES.getOrDefault(errno, "errno " + errno);
    }
}

package io.sparkdcp.copy;

import io.sparkdcp.posix.Errno;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.FsXattr;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.PosixException;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Sets a struct fsxattr on a destination that may not hold every flag (ext4 has no nodefrag nor
 * extent-size hints, tmpfs neither immutable nor sync): when the one FSSETXATTR is refused, the
 * project ID and each differing flag are tried alone, and a flag the file system refuses is left
 * out from then on with one notice per flag kind, or with --strict fails the entry. The project ID
 * the destination cannot hold fails the entry as before. One engine's.
 */
final class FlagRefusals {
    /** The op of the notices, by which a job's counts keep one notice per flag kind. */
    static final String NOTICE_OP = "keep flag";

    private static final Map<Integer, String> NAMES = new LinkedHashMap<>();

    static {
        // Lock bits last: once set, nothing else may change the entry.
        NAMES.put(Linux.FS_XFLAG_SYNC, "sync");
        NAMES.put(Linux.FS_XFLAG_NOATIME, "noatime");
        NAMES.put(Linux.FS_XFLAG_NODUMP, "nodump");
        NAMES.put(Linux.FS_XFLAG_NODEFRAG, "nodefrag");
        NAMES.put(Linux.FS_XFLAG_DAX, "dax");
        NAMES.put(Linux.FS_XFLAG_EXTSIZE, "extent-size hint");
        NAMES.put(Linux.FS_XFLAG_EXTSZINHERIT, "inherited extent-size hint");
        NAMES.put(Linux.FS_XFLAG_COWEXTSIZE, "CoW extent-size hint");
        NAMES.put(Linux.FS_XFLAG_APPEND, "append-only");
        NAMES.put(Linux.FS_XFLAG_IMMUTABLE, "immutable");
    }

    private final boolean strict;
    private int refused;
    private final List<Failure> notices = new ArrayList<>();

    FlagRefusals(boolean strict) { this.strict = strict; }

    /**
     * Sets target on dst, whose struct is current; returns what dst holds afterwards. A call that
     * adds flags is checked by reading the struct back: ext4 takes nodefrag and extent-size hints
     * without an error and without keeping them.
     */
    FsXattr set(Fd dst, byte[] relPath, FsXattr current, FsXattr target, boolean always) {
        FsXattr wanted = withoutRefused(current, target);
        if (!always && wanted.equals(current)) return current;
        try {
            Posix.setFsXattr(dst, wanted);
        } catch (PosixException e) {
            if (!unsupported(e) && e.errno() != Errno.EPERM) throw e;
            return oneByOne(dst, relPath, current, wanted);
        }
        int added = wanted.keptFlags() & ~current.keptFlags();
        if (added == 0) return wanted;
        FsXattr held = Posix.getFsXattr(dst);
        for (Map.Entry<Integer, String> flag : NAMES.entrySet())
            if ((added & flag.getKey() & ~held.xflags()) != 0)
                refuse(flag.getKey(), flag.getValue(), relPath, new PosixException("FS_IOC_FSSETXATTR", Errno.EOPNOTSUPP, relPath, "not kept"));
        return held;
    }

    /** The project ID, then each differing flag alone, lock bits last; a flag refused is noticed and left out. */
    private FsXattr oneByOne(Fd dst, byte[] relPath, FsXattr current, FsXattr wanted) {
        FsXattr base = current.withProject(wanted.projid(), wanted.projInherit());
        if (!base.equals(current)) FdMetadataIO.setProject(dst, relPath, current, base);
        for (Map.Entry<Integer, String> flag : NAMES.entrySet()) {
            int bit = flag.getKey();
            if (((base.xflags() ^ wanted.xflags()) & bit) == 0) continue;
            FsXattr trial = withBit(base, wanted, bit);
            try {
                Posix.setFsXattr(dst, trial);
                base = trial;
            } catch (PosixException e) {
                // EPERM: immutable and append-only need CAP_LINUX_IMMUTABLE, which a user copying lacks.
                if (!unsupported(e) && e.errno() != Errno.EPERM) throw e;
                refuse(bit, flag.getValue(), relPath, e);
            }
        }
        return base;
    }

    /** The source's struct without the flags this destination was found not to hold: they are not wanted again. */
    FsXattr holdable(FsXattr source) {
        if (source == null || refused == 0) return source;
        return new FsXattr(source.xflags() & ~refused, source.extsize(), source.nextents(), source.projid(), source.cowextsize());
    }

    /** The destination has no struct fsxattr at all (no such ioctl): every flag of the source is lost. */
    void refuseAll(FsXattr source, byte[] relPath, PosixException cause) {
        for (Map.Entry<Integer, String> flag : NAMES.entrySet())
            if ((source.keptFlags() & flag.getKey()) != 0) refuse(flag.getKey(), flag.getValue(), relPath, cause);
    }

    /** Notices not yet handed to the counts. */
    void drainInto(CopyCounts counts) {
        for (Failure f : notices) counts.addNoticeOnce(f);
        notices.clear();
    }

    private void refuse(int bit, String name, byte[] relPath, PosixException cause) {
        String what = cause.errno() == Errno.EPERM
                ? "this user may not set the " + name + " flag (it needs CAP_LINUX_IMMUTABLE)"
                : "the destination file system cannot hold the " + name + " flag";
        if (strict) throw new PosixException(cause.call(), cause.errno(), relPath, what + " (--strict)");
        if ((refused & bit) != 0) return;
        refused |= bit;
        notices.add(Failure.of(relPath, NOTICE_OP, what + ": left out here and on every other entry"));
    }

    private FsXattr withoutRefused(FsXattr current, FsXattr target) {
        if (refused == 0) return target;
        int flags = (target.xflags() & ~refused) | (current.xflags() & refused);
        return new FsXattr(flags, target.extsize(), target.nextents(), target.projid(), target.cowextsize());
    }

    /** base with one bit of wanted, and the hint that goes with it. */
    private static FsXattr withBit(FsXattr base, FsXattr wanted, int bit) {
        int flags = (base.xflags() & ~bit) | (wanted.xflags() & bit);
        boolean ext = (bit & (Linux.FS_XFLAG_EXTSIZE | Linux.FS_XFLAG_EXTSZINHERIT)) != 0;
        boolean cow = bit == Linux.FS_XFLAG_COWEXTSIZE;
        return new FsXattr(flags, ext ? wanted.extsize() : base.extsize(), base.nextents(), base.projid(),
                cow ? wanted.cowextsize() : base.cowextsize());
    }

    static boolean unsupported(PosixException e) {
        return e.errno() == Errno.EOPNOTSUPP || e.errno() == Errno.EINVAL || e.errno() == Errno.ENOTTY;
    }
}

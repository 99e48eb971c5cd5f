package io.sparkdcp.copy;

import io.sparkdcp.copy.decision.Ownership;
import io.sparkdcp.copy.steps.Step;
import io.sparkdcp.posix.Errno;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.FsXattr;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.PosixException;
import io.sparkdcp.posix.Stat;

import java.util.List;

/**
 * Gives an open destination its metadata, in the one order that keeps everything: owner first
 * (chown clears setuid/setgid and security.capability), then xattrs (ACLs among them), mode,
 * project ID and flags (one FS_IOC_FSSETXATTR), times (anything later would move mtime), and
 * immutable and append-only last, since nothing may change an entry once they are set.
 */
final class MetadataWriter {
    private final CopyContext ctx;

    MetadataWriter(CopyContext ctx) { this.ctx = ctx; }

    /**
     * Everything, locks included.
     *
     * @param currentUid uid/gid dst has now (for a new file: ours, or the setgid parent's group)
     * @param wanted     what of the source's struct fsxattr to give, or null to leave it
     * @param held       what dst's struct holds now (null: unknown)
     */
    void apply(Fd dst, byte[] relPath, Stat src, int currentUid, int currentGid, List<Xattr> xattrs,
               WantedFsXattr wanted, FsXattr held) {
        applyOwner(dst, relPath, src, currentUid, currentGid);
        FsXattr now = applyAfterOwner(dst, relPath, src, xattrs, wanted, held, false);
        applyLocks(dst, relPath, wanted, now);
    }

    /**
     * Everything after the owner but the locks, for a file whose owner was set before its data.
     *
     * @param modeIsFinal the file was created with its final mode, and nothing since changed it
     * @return what dst's struct holds afterwards (null: unknown), for {@link #applyLocks}
     */
    FsXattr applyAfterOwner(Fd dst, byte[] relPath, Stat src, List<Xattr> xattrs, WantedFsXattr wanted, FsXattr held,
                            boolean modeIsFinal) {
        ctx.metadata.writeXattrs(dst, relPath, xattrs);
        if (!modeIsFinal) {
            long t = ctx.steps.start(Step.MODE);
            try {
                Posix.fchmod(dst, src.permissions());
            } finally {
                ctx.steps.stop(Step.MODE, t);
            }
        }
        FsXattr now = ctx.metadata.writeFsXattr(dst, relPath, wanted, held, false);
        long t = ctx.steps.start(Step.TIMES);
        try {
            Posix.futimens(dst, src.atimeSec(), src.atimeNsec(), src.mtimeSec(), src.mtimeNsec());
        } finally {
            ctx.steps.stop(Step.TIMES, t);
        }
        return now;
    }

    /** Immutable and append-only of the source, when it has them: the very last change to dst. */
    void applyLocks(Fd dst, byte[] relPath, WantedFsXattr wanted, FsXattr held) {
        if (wanted != null && wanted.locks()) ctx.metadata.writeFsXattr(dst, relPath, wanted, held, true);
    }

    /** Whether a chown would change anything we are allowed to change. */
    boolean ownerDiffers(Stat src, int uid, int gid) {
        return Ownership.differs(src, uid, gid, ctx.euid);
    }

    void applyOwner(Fd dst, byte[] relPath, Stat src, int currentUid, int currentGid) {
        ctx.owners.check(relPath, src, currentUid);
        if (!ownerDiffers(src, currentUid, currentGid)) return;
        long t = ctx.steps.start(Step.OWNER);
        try {
            if (ctx.privileged()) Posix.fchown(dst, src.uid(), src.gid());
            else Posix.fchown(dst, -1, src.gid());
        } catch (PosixException e) {
            if (ctx.privileged() || e.errno() != Errno.EPERM) throw e; // a user not in that group: as cp -a
        } finally {
            ctx.steps.stop(Step.OWNER, t);
        }
    }

    /** Owner of an entry that cannot be opened (symlink, FIFO, device), by name in its parent. */
    void applyOwnerAt(Fd parent, byte[] name, byte[] relPath, Stat src, int currentUid, int currentGid) {
        ctx.owners.check(relPath, src, currentUid);
        if (!ownerDiffers(src, currentUid, currentGid)) return;
        ctx.steps.time(Step.OWNER, () -> {
            try {
                Posix.lchownAt(parent, name, ctx.privileged() ? src.uid() : -1, src.gid());
            } catch (PosixException e) {
                if (ctx.privileged() || e.errno() != Errno.EPERM) throw e;
            }
        });
    }

    void applyTimesAt(Fd parent, byte[] name, Stat src) {
        ctx.steps.time(Step.TIMES, () -> Posix.lutimensAt(parent, name, src.atimeSec(), src.atimeNsec(), src.mtimeSec(), src.mtimeNsec()));
    }
}

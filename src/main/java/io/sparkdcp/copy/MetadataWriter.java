package io.sparkdcp.copy;

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
 * project ID, and times last (anything later would move mtime).
 */
final class MetadataWriter {
    private final CopyContext ctx;

    MetadataWriter(CopyContext ctx) { this.ctx = ctx; }

    /**
     * @param currentUid uid/gid dst has now (for a new file: ours, or the setgid parent's group)
     * @param project    source project ID to give, or null to leave it
     * @param inherited  what dst got at creation (null: unknown)
     */
    void apply(Fd dst, byte[] relPath, Stat src, int currentUid, int currentGid, List<Xattr> xattrs,
               FsXattr project, FsXattr inherited) {
        applyOwner(dst, src, currentUid, currentGid);
        applyAfterOwner(dst, relPath, src, xattrs, project, inherited, false);
    }

    /**
     * Everything after the owner, for a file whose owner was set before its data.
     *
     * @param modeIsFinal the file was created with its final mode, and nothing since changed it
     */
    void applyAfterOwner(Fd dst, byte[] relPath, Stat src, List<Xattr> xattrs, FsXattr project, FsXattr inherited,
                         boolean modeIsFinal) {
        ctx.metadata.writeXattrs(dst, relPath, xattrs);
        if (!modeIsFinal) ctx.steps.time(Step.MODE, () -> Posix.fchmod(dst, src.permissions()));
        if (project != null) ctx.metadata.writeProject(dst, relPath, project, inherited);
        ctx.steps.time(Step.TIMES, () -> Posix.futimens(dst, src.atimeSec(), src.atimeNsec(), src.mtimeSec(), src.mtimeNsec()));
    }

    /** Whether a chown would change anything we are allowed to change. */
    boolean ownerDiffers(Stat src, int uid, int gid) {
        return Ownership.differs(src, uid, gid, ctx.euid);
    }

    void applyOwner(Fd dst, Stat src, int currentUid, int currentGid) {
        if (!ownerDiffers(src, currentUid, currentGid)) return;
        ctx.steps.time(Step.OWNER, () -> {
            try {
                if (ctx.privileged()) Posix.fchown(dst, src.uid(), src.gid());
                else Posix.fchown(dst, -1, src.gid());
            } catch (PosixException e) {
                if (ctx.privileged() || e.errno() != Errno.EPERM) throw e; // a user not in that group: as cp -a
            }
        });
    }

    /** Owner of an entry that cannot be opened (symlink, FIFO, device), by name in its parent. */
    void applyOwnerAt(Fd parent, byte[] name, Stat src, int currentUid, int currentGid) {
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

package io.sparkdcp.copy;

import io.sparkdcp.copy.decision.Decision;
import io.sparkdcp.copy.steps.Step;
import io.sparkdcp.posix.Errno;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.FsXattr;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.NativeBuffer;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.PosixException;
import io.sparkdcp.posix.Stat;
import io.sparkdcp.walk.Entry;

import java.util.List;
import java.util.function.BiConsumer;

/**
 * Directories in two passes. {@link #make}: create owner-only and give the project ID and
 * PROJINHERIT at once, so the children created next inherit them. {@link #finish}, after every
 * child exists and deepest first: xattrs, owner, mode and times.
 */
final class DirectoryCopier {
    private static final int NEW_DIRECTORY_MODE = 0700;

    private final CopyContext ctx;
    private final MetadataSync sync;
    private final NativeBuffer listing = new NativeBuffer(64 * 1024);
    private final NativeBuffer marker = new NativeBuffer(64);

    DirectoryCopier(CopyContext ctx, MetadataSync sync) {
        this.ctx = ctx;
        this.sync = sync;
    }

    /** True when this call created the directory. */
    boolean make(Entry e, CopyCounts counts) {
        boolean created = false;
        try {
            if (!e.isRoot()) {
                Fd parent = ctx.destination.get(e.parent());
                Stat existing = ctx.looksFirst() ? ctx.statDestination(parent, e.name()) : null;
                if (existing == null) {
                    if (ctx.parentState(e.parent()).protectedLocks() != 0) { // nothing is made there: only one that is there stays
                        if (!ctx.looksFirst()) existing = ctx.statDestination(parent, e.name());
                        if (existing == null) ctx.unlocker.requireNamesChangeable(e.parent(), e.path(), "mkdirat");
                    } else created = ctx.steps.time(Step.MKDIR, () -> ctx.unlocker.unlockingParent(parent, () -> Posix.mkdirat(parent, e.name(), NEW_DIRECTORY_MODE)));
                }
                if (!created) requireDirectory(parent, e, existing);
            }
            if (!created) removeLeftoverTemporaries(e);
            // A new directory's default layout before any entry is made in it.
            if (created && ctx.layouts.active())
                ctx.layouts.copy(ctx.source.get(e.path()), ctx.destination.get(e.path()), e.path(), ctx.steps);
            // Sync fixes an existing directory's project in its finish step, where it is counted; files
            // made in it meanwhile get their own project set explicitly, so the order does not matter.
            // The root (always "existing", often new) keeps the early set, so a fresh tree inherits.
            boolean projectLater = !created && !e.isRoot() && ctx.options.modes().sync();
            if (ctx.options.projectIds() && e.project() != null && !projectLater) {
                // A directory just made got its parent's project (and PROJINHERIT) if the parent has PROJINHERIT.
                FsXattr inherited = created ? ctx.parentState(e.parent()).projectOfNewDirectory() : null;
                // The project alone: flags wait for the finish, so the entries made meanwhile inherit none.
                WantedFsXattr project = new WantedFsXattr(e.project(), true, false);
                if (ctx.metadata.needsFsXattrWrite(project, inherited)) {
                    Fd dir = ctx.destination.get(e.path());
                    ctx.metadata.writeFsXattr(dir, e.path(), project, inherited, false);
                    ctx.forgetParentState(e.path());
                }
            }
        } catch (PosixException ex) {
            counts.addFailure(e, Failure.of(e.path(), ex));
        }
        return created;
    }

    /**
     * Temporaries of --atomic that a killed run left: removed here, by any run (atomic or not), once
     * per directory and before any file task writes into it, so no task can remove another's
     * temporary in progress. Only a regular file with a temporary's name and our marker is ours.
     */
    private void removeLeftoverTemporaries(Entry e) {
        Fd dir = ctx.destination.get(e.path());
        for (Posix.DirEntry d : Posix.readDirectory(dir, listing)) {
            if (!TemporaryNames.isTemporary(d.name()) || !isMarkedTemporary(dir, d)) continue;
            long t = System.nanoTime();
            try {
                Posix.unlinkat(dir, d.name(), false);
            } catch (PosixException ex) {
                if (ex.errno() != Errno.ENOENT) throw ex;
            } finally {
                ctx.steps.record(Step.UNLINK, System.nanoTime() - t);
            }
        }
    }

    private boolean isMarkedTemporary(Fd dir, Posix.DirEntry d) {
        if (d.dType() != Linux.DT_REG && d.dType() != Linux.DT_UNKNOWN) return false;
        return Temporaries.isMarked(dir, d.name(), TemporaryNames.marker(ctx.privileged()), marker);
    }

    /** An existing name (seen, or null: look) is fine if it is a directory; anything else is the user's and stays. */
    private void requireDirectory(Fd parent, Entry e, Stat seen) {
        Stat existing = seen != null ? seen : ctx.steps.time(Step.STAT_DST, () -> Posix.statAt(parent, e.name()));
        Decision d = ctx.decide(e, existing);
        // One protected at DST is still made use of: its entries that need no name changed there are copied.
        if (d.kind() == Decision.Kind.REFUSE && !d.protectedAtDestination()) throw d.refusal(e.stat(), e.path());
    }

    /**
     * A source directory's struct fsxattr: the walk's, unless it has hints, whose sizes the walk
     * does not keep, or the listing has none (saved without); then read from the open source.
     */
    static FsXattr sourceFsXattr(CopyContext ctx, Entry e, Fd src) {
        FsXattr walked = e.project();
        boolean hints = walked != null && (walked.hasExtentSizeHint() || (walked.xflags() & Linux.FS_XFLAG_COWEXTSIZE) != 0);
        if ((walked != null && !hints) || src == null || !ctx.options.flags()) return walked;
        return ctx.readFsXattr(src, e.path());
    }

    /** A copy's finish: a directory whose metadata differs gets all of it, and counts as copied. */
    void finish(Entry e, CopyCounts counts) {
        finishWith(e, counts, (dst, current) -> {
            Decision d = ctx.decide(e, current);
            if (d.kind() == Decision.Kind.SKIP) {
                counts.addSkipped(e);
                return;
            }
            if (d.kind() == Decision.Kind.REFUSE) throw d.refusal(e.stat(), e.path());
            // A directory locked at DST (a re-run's) is unlocked to be fixed; its locks are set again last.
            FsXattr held = d.unlocksFirst(current.locks()) ? ctx.unlocker.unlock(dst, e) : null;
            // A source directory we may not open failed once, in the walk: its copy still gets the
            // owner, mode and times the walk saw, not the 0700 and current time of its making.
            Fd src = MetadataSync.openUnlessUnreadable(ctx, e);
            List<Xattr> xattrs = src == null ? List.of() : ctx.xattrsBesidesLayout(ctx.metadata.readXattrs(src, e.path()));
            // The project was given when it was made; its flags now, after its entries.
            FsXattr source = sourceFsXattr(ctx, e, src);
            WantedFsXattr flags = ctx.options.flags() && source != null ? new WantedFsXattr(source, false, true) : null;
            ctx.writer.apply(dst, e.path(), e.stat(), current.uid(), current.gid(), xattrs, flags, held);
            ctx.forgetParentState(e.path());
            if (src != null) counts.addCopied(e);
        });
    }


    /** Sync's finish: set only what differs, and count by whether the directory is new. */
    void finishSync(Entry e, CopyCounts counts, boolean created) {
        finishWith(e, counts, (dst, current) -> sync.directory(e, dst, current, counts, created));
    }

    /** Opens the made directory, stats it, and hands both on; a failure is the entry's. */
    private void finishWith(Entry e, CopyCounts counts, BiConsumer<Fd, Stat> step) {
        Fd dst = openMade(e, counts);
        if (dst == null) return;
        try {
            Stat current = ctx.steps.time(Step.STAT_DST, () -> Posix.fstat(dst));
            step.accept(dst, current);
        } catch (PosixException ex) {
            counts.addFailure(e, Failure.of(e.path(), ex));
        }
    }

    /** The made directory, or null when it is not there: its make step failed and was reported then. */
    private Fd openMade(Entry e, CopyCounts counts) {
        try {
            return ctx.destination.get(e.path());
        } catch (PosixException ex) {
            if (ex.errno() != Errno.ENOENT && ex.errno() != Errno.ENOTDIR) counts.addFailure(e, Failure.of(e.path(), ex));
            return null;
        }
    }
}

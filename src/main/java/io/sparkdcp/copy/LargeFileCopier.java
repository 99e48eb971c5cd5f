package io.sparkdcp.copy;

import io.sparkdcp.copy.compare.ContentComparer;
import io.sparkdcp.copy.decision.Decision;
import io.sparkdcp.copy.steps.Step;
import io.sparkdcp.posix.Errno;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.FsXattr;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.PosixException;
import io.sparkdcp.posix.Stat;
import io.sparkdcp.plan.Chunk;
import io.sparkdcp.plan.LargeFile;
import io.sparkdcp.walk.Entry;

import java.util.List;

/**
 * A file above the chunk size is copied by several tasks into a marked temporary in its DST directory
 * ({@link Temporaries}): {@link #prepare} creates it owner-only at its final size (or finds the file
 * there already kept), {@link #copyChunk} copies one byte range, and {@link #finish} gives it its
 * metadata once every chunk is in, times last, and renames it over its final name. A file whose chunks
 * did not all arrive never has that name. Chunk tasks hold the temporary's lock shared and the finish
 * holds it alone ({@link AttemptLocks}), so a stale chunk task never writes after the times.
 */
final class LargeFileCopier {
    private final CopyContext ctx;
    private final MetadataSync sync;
    private final CreateOrReplace createOrReplace;
    private final AttemptLocks locks;
    private final Temporaries temporaries;
    private final ContentComparer checksums = new ContentComparer();

    LargeFileCopier(CopyContext ctx, MetadataSync sync, CreateOrReplace createOrReplace, AttemptLocks locks,
                    Temporaries temporaries) {
        this.ctx = ctx;
        this.sync = sync;
        this.createOrReplace = createOrReplace;
        this.locks = locks;
        this.temporaries = temporaries;
    }

    /** The temporary created, whose chunks must be copied; null when the file there is kept as it is, or failed. */
    LargeFile prepare(Entry e, CopyCounts counts) {
        try {
            Fd dir = ctx.destination.get(e.parent());
            Stat existing = ctx.statDestination(dir, e.name());
            if (existing != null) {
                Decision d = createOrReplace.settle(e, dir, existing, ctx.decide(e, existing), sync::keepFile, counts);
                if (d.keeps()) return null;
                ctx.unlocker.requireNamesChangeable(e.parent(), e.path(), "rename");
                createOrReplace.unlockToReplace(e, dir, existing, d); // the finish's rename replaces it
            } else {
                ctx.unlocker.requireNamesChangeable(e.parent(), e.path(), "openat"); // no name made in a directory protected at DST
            }
            byte[] temporary = TemporaryNames.forSource(e.name(), e.stat());
            Fd dst = temporaries.named(dir, e.path(), temporary, 0600, false);
            if (dst == null) { // an earlier attempt's of this step (its task failed after it): replaced
                temporaries.removeIfMarked(dir, temporary);
                dst = temporaries.named(dir, e.path(), temporary, 0600, false);
            }
            if (dst == null) { // a file of someone else's under that name: left alone, a name of chance instead
                temporary = TemporaryNames.next(e.name());
                dst = temporaries.named(dir, e.path(), temporary, 0600, false);
            }
            if (dst == null) throw Posix.failure("openat", Errno.EEXIST, e.path());
            boolean prepared = false;
            try {
                beforeFirstExtent(e, dst);
                Posix.ftruncate(dst, e.stat().size());
                LargeFile made = new LargeFile(e, statDestination(dst).ino(), temporary);
                prepared = true;
                return made;
            } finally {
                if (!prepared) temporaries.remove(dir, temporary);
                ctx.timedClose(dst);
            }
        } catch (PosixException ex) {
            counts.addFailure(e, Failure.of(e.path(), ex));
            return null;
        }
    }

    /**
     * What must be set before the file has extents, and so before the truncate and the chunks: the
     * Lustre layout (the truncate would give it its directory's) and an XFS extent-size hint.
     */
    private void beforeFirstExtent(Entry e, Fd dst) {
        if (!ctx.layouts.active() && !ctx.options.flags()) return;
        Fd src = ctx.openSource(e);
        try {
            ctx.layouts.copy(src, dst, e.path(), ctx.steps);
            FsXattr source = ctx.options.flags() ? ctx.readFsXattr(src, e.path()) : null;
            if (source != null && source.hasExtentSizeHint()) ctx.metadata.writeFsXattr(dst, e.path(), ctx.wanted(source), null, false);
        } finally {
            ctx.timedClose(src);
        }
    }

    /** Copies one chunk; returns bytes written. Failures are the caller's to count per file. */
    long copyChunk(Chunk c) {
        Entry e = c.file();
        Fd src = null;
        Fd dst = null;
        try {
            src = ctx.openSource(e);
            dst = openTemporary(e, c.temporary(), c.destinationIno(), false);
            if (dst == null) return 0; // finished already: a chunk task that outlived its retry
            locks.holdShared(dst); // beside other chunks; not while the finish sets the times
            Stat current = statDestination(dst);
            requireCreatedInode(e, current, c.destinationIno());
            // A chunk task still running after the finish (its executor cut off from its worker, its retry
            // done): the file is complete, and a write now would move its times.
            if (current.sameMtime(e.stat())) return 0;
            Fd from = src;
            Fd to = dst;
            long bytes;
            try {
                bytes = ctx.steps.time(Step.DATA, () -> ctx.data.copyRange(from, to, c.offset(), c.length(), e.stat().maybeSparse()));
            } catch (PosixException ex) {
                ctx.requireUnchanged(e, src);
                throw ex;
            }
            ctx.requireUnchanged(e, src);
            return bytes;
        } finally {
            ctx.timedClose(src);
            ctx.timedClose(dst);
        }
    }

    /**
     * @return the data bytes the chunks copied, measured on the source, when the file is sparse and this
     *         attempt finished it (its chunks cannot tell their share of its data); else -1
     */
    long finish(LargeFile large, CopyCounts counts) {
        Entry e = large.file();
        Fd src = null;
        Fd dst = null;
        try {
            src = ctx.openSource(e);
            dst = openTemporary(e, large.temporary(), large.destinationIno(), ctx.options.modes().verify());
            if (dst == null) { // another attempt of this finish renamed it into place
                counts.addCopied(e);
                return -1;
            }
            locks.hold(dst); // alone: no chunk task writes after the times
            Stat current = statDestination(dst);
            requireCreatedInode(e, current, large.destinationIno());
            Fd dir = ctx.destination.get(e.parent());
            if (!ctx.steps.time(Step.STAT_DST, () -> sameInode(Posix.statAtIfExists(dir, large.temporary()), current))) {
                counts.addCopied(e); // renamed into place by another attempt while this one waited for its lock
                return -1;
            }
            if (current.size() != e.stat().size())
                throw new PosixException("copy", Errno.EIO, e.path(), "destination has " + current.size()
                        + " bytes after all chunks, expected " + e.stat().size());
            // A failed verification or a changed source leaves the temporary, never the final name: a re-run copies it again.
            if (ctx.options.modes().verify()) checksums.verify(e, src, dst, ctx.steps);
            ctx.requireUnchanged(e, src); // every chunk checked its own; this covers changes after the last
            if (ctx.options.modes().fsync()) ctx.fsync(dst);
            WantedFsXattr fsx = ctx.wanted(ctx.readFsXattr(src, e.path()));
            List<Xattr> xattrs = ctx.xattrsBesidesLayout(ctx.metadata.readXattrs(src, e.path()));
            byte[] temporaryPath = PathBytes.join(e.parent(), large.temporary());
            MetadataWriter writer = ctx.writer; // as apply() does, but with the rename before the locks
            writer.applyOwner(dst, e.path(), e.stat(), current.uid(), current.gid());
            FsXattr held = writer.applyAfterOwner(dst, temporaryPath, e.stat(), xattrs, fsx, null, false);
            temporaries.renameIntoPlace(dir, large.temporary(), dst, null, e.name(), ctx.parentState(e.parent()));
            writer.applyLocks(dst, e.path(), fsx, held); // a locked file could not be renamed
            counts.addCopied(e);
            if (ctx.options.modes().verify()) counts.addVerified();
            return e.stat().maybeSparse() ? DataCopier.dataBytes(src, e.stat().size()) : -1;
        } catch (PosixException ex) {
            counts.addFailure(e, Failure.of(e.path(), ex));
            return -1;
        } finally {
            ctx.timedClose(src);
            ctx.timedClose(dst);
        }
    }

    /**
     * The temporary, opened by its name in its directory; null when it is gone because its file is in
     * place already (its inode under the final name).
     */
    private Fd openTemporary(Entry e, byte[] temporary, long createdIno, boolean readable) {
        Fd dir = ctx.destination.get(e.parent());
        int flags = (readable ? Linux.O_RDWR : Linux.O_WRONLY) | Linux.O_NOFOLLOW;
        Fd file = ctx.steps.time(Step.OPEN_DST, () -> Posix.openatUnless(Errno.ENOENT, dir, temporary, flags, 0));
        if (file != null) return file;
        Stat placed = ctx.statDestination(dir, e.name());
        if (placed != null && placed.ino() == createdIno) return null;
        throw new PosixException("copy", Errno.ESTALE, e.path(), "the temporary its chunks were copied into is gone"
                + " and not in place: another run or a user removed it");
    }

    private static boolean sameInode(Stat a, Stat b) {
        return a != null && a.ino() == b.ino() && a.dev() == b.dev();
    }

    private Stat statDestination(Fd dst) {
        long t = System.nanoTime();
        try {
            return Posix.fstat(dst);
        } finally {
            ctx.steps.record(Step.STAT_DST, System.nanoTime() - t);
        }
    }

    /** The name must still lead to the inode the prepare step created: another run's file is left alone. */
    private static void requireCreatedInode(Entry e, Stat current, long createdIno) {
        if (current.ino() != createdIno)
            throw new PosixException("copy", Errno.ESTALE, e.path(), "the destination file was replaced during the copy"
                    + " (inode " + current.ino() + ", created as " + createdIno + "): another run or a user wrote there");
    }
}

package io.sparkdcp.copy;

import io.sparkdcp.posix.Errno;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.FsXattr;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.PosixException;
import io.sparkdcp.posix.Stat;
import io.sparkdcp.plan.Chunk;
import io.sparkdcp.plan.LargeFile;
import io.sparkdcp.walk.Entry;

import java.util.List;

/**
 * A file above the chunk size is copied by several tasks: {@link #prepare} creates it owner-only at
 * its final size (or finds it already identical) and {@link IncompleteMark marks} it, {@link #copyChunk}
 * copies one byte range, and {@link #finish} gives it its metadata once every chunk is in — times last,
 * so a file whose chunks did not all arrive never looks complete, not even newer than its source. Chunk tasks hold the file's lock shared and the finish holds
 * it alone ({@link AttemptLocks}), so a stale chunk task never writes after the times.
 */
final class LargeFileCopier {
    private static final int CREATE = Linux.O_WRONLY | Linux.O_CREAT | Linux.O_EXCL | Linux.O_NOFOLLOW;

    private final CopyContext ctx;
    private final MetadataSync sync;
    private final CreateOrReplace createOrReplace;
    private final AttemptLocks locks;
    private final ContentComparer checksums = new ContentComparer();

    LargeFileCopier(CopyContext ctx, MetadataSync sync, CreateOrReplace createOrReplace, AttemptLocks locks) {
        this.ctx = ctx;
        this.sync = sync;
        this.createOrReplace = createOrReplace;
        this.locks = locks;
    }

    /** The file created, whose chunks must be copied; null when it is kept as it is or failed. */
    LargeFile prepare(Entry e, CopyCounts counts) {
        try {
            Fd dir = ctx.destination.get(e.parent());
            Fd dst = createOrReplace.runFile(e, dir, 0600,
                    (in, name, mode) -> ctx.steps.time(Step.OPEN_DST, () -> Posix.openatUnless(Errno.EEXIST, in, name, ctx.layouts.createFlags(CREATE), mode)),
                    sync::keepFile, counts);
            if (dst == null) return null;
            try {
                beforeFirstExtent(e, dst);
                Posix.ftruncate(dst, e.stat().size());
                IncompleteMark.mark(dst);
                return new LargeFile(e, statDestination(dst).ino());
            } finally {
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
            dst = ctx.openDestination(e, false);
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

    void finish(LargeFile large, CopyCounts counts) {
        Entry e = large.file();
        Fd src = null;
        Fd dst = null;
        try {
            src = ctx.openSource(e);
            dst = ctx.openDestination(e, ctx.options.modes().verify());
            locks.hold(dst); // alone: no chunk task writes after the times
            Stat current = statDestination(dst);
            requireCreatedInode(e, current, large.destinationIno());
            if (current.size() != e.stat().size())
                throw new PosixException("copy", Errno.EIO, e.path(), "destination has " + current.size()
                        + " bytes after all chunks, expected " + e.stat().size());
            // A failed verification or a changed source leaves the file without its final times: a re-run copies it again.
            if (ctx.options.modes().verify()) checksums.verify(e, src, dst, ctx.steps);
            ctx.requireUnchanged(e, src); // every chunk checked its own; this covers changes after the last
            if (ctx.options.modes().fsync()) ctx.fsync(dst);
            WantedFsXattr fsx = ctx.wanted(ctx.readFsXattr(src, e.path()));
            List<Xattr> xattrs = ctx.xattrsBesidesLayout(ctx.metadata.readXattrs(src, e.path()));
            ctx.writer.apply(dst, e.path(), e.stat(), current.uid(), current.gid(), xattrs, fsx, null);
            counts.addCopied(e);
            if (ctx.options.modes().verify()) counts.addVerified();
        } catch (PosixException ex) {
            counts.addFailure(e, Failure.of(e.path(), ex));
        } finally {
            ctx.timedClose(src);
            ctx.timedClose(dst);
        }
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

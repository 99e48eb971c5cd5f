package io.sparkdcp.copy;

import io.sparkdcp.copy.compare.ContentComparer;
import io.sparkdcp.copy.decision.Decision;
import io.sparkdcp.copy.steps.Step;
import io.sparkdcp.copy.steps.StepRecorder;
import io.sparkdcp.posix.Errno;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.FsXattr;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.NativeBuffer;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.PosixException;
import io.sparkdcp.posix.Stat;
import io.sparkdcp.plan.HardLink;
import io.sparkdcp.walk.Entry;

import java.util.Arrays;
import java.util.List;

/**
 * Copies non-directory entries. A regular file costs one open on each side and nothing by path: the
 * destination's name is looked at first, then the copy is made unnamed in its directory (or as a
 * temporary, to replace a file), the source is opened, every step runs on the two fds, and the
 * complete file is linked or renamed into place.
 */
final class FileCopier {
    /** Files and special files are owner-only until their final owner and mode are set. */
    private static final int NEW_FILE_MODE = 0600;
    /** Rounds of look, write and name before a name other attempts keep taking counts as a failure. */
    private static final int ROUNDS = 10;
    /** A file created under its final name (--inplace): only where the name is free, never through a symlink. */
    private static final int IN_PLACE_CREATE = Linux.O_CREAT | Linux.O_EXCL | Linux.O_NOFOLLOW;

    private final CopyContext ctx;
    private final MetadataSync sync;
    private final CreateOrReplace createOrReplace;
    private final ContentComparer checksums = new ContentComparer();
    private final NativeBuffer inherited = new NativeBuffer(4096);
    private final Temporaries temporaries;
    /** Held once: a method reference made per file would cost an allocation each (see {@link StepRecorder}). */
    private final CreateOrReplace.Keeper keepFile;

    FileCopier(CopyContext ctx, MetadataSync sync, CreateOrReplace createOrReplace, Temporaries temporaries) {
        this.ctx = ctx;
        this.sync = sync;
        this.createOrReplace = createOrReplace;
        this.temporaries = temporaries;
        this.keepFile = sync::keepFile;
    }

    void copy(Entry e, CopyCounts counts) {
        try {
            switch (e.type()) {
                case FILE -> copyRegular(e, counts);
                case SYMLINK -> copySymlink(e, counts);
                case FIFO, SOCKET, CHAR_DEVICE, BLOCK_DEVICE -> copySpecial(e, counts);
                case DIRECTORY -> throw new IllegalArgumentException("directories are made by DirectoryCopier: " + e.display());
            }
        } catch (PosixException ex) {
            counts.addFailure(e, Failure.of(e.path(), ex));
        }
    }

    // ---- regular files ------------------------------------------------------------------------

    /**
     * A regular file: what its name holds is looked at first (a re-run learns there that it may skip,
     * without opening the source); the copy is then written where no later run can mistake it for a
     * complete file ({@link Temporaries}) and given its final name only with its data and all its
     * metadata, times included.
     */
    private void copyRegular(Entry e, CopyCounts counts) {
        Fd dir = ctx.destination.get(e.parent());
        boolean takenMeanwhile = false;
        for (int round = 0; round < ROUNDS; round++) {
            // Under a DST this run made the name is free: the first round makes the copy without a look that fails.
            Stat existing = round == 0 && !ctx.looksFirst() ? null : ctx.statDestination(dir, e.name());
            if (existing == null) {
                ctx.unlocker.requireNamesChangeable(e.parent(), e.path(), "openat"); // no name made in a directory protected at DST
                if (copyNew(e, dir, counts)) return;
                takenMeanwhile = true; // by another attempt's complete copy (kept below), or by someone else
                continue;
            }
            Decision d = createOrReplace.settle(e, dir, existing, ctx.decide(e, existing), keepFile, counts);
            if (d.keeps()) return;
            // The name was free when looked at: what took it since is not the user's to lose.
            if (takenMeanwhile) throw new PosixException("copy", Errno.EEXIST, e.path(), "created at DST during the copy; left as it is");
            ctx.unlocker.requireNamesChangeable(e.parent(), e.path(), "rename");
            CreateOrReplace.Claim claim = createOrReplace.claim(e, dir, existing, d, keepFile, counts);
            if (claim.outcome() == CreateOrReplace.Outcome.KEPT) return;
            if (claim.outcome() == CreateOrReplace.Outcome.REPLACE) {
                try {
                    if (ctx.options.modes().inPlace()) replaceInPlace(e, dir, counts);
                    else replace(e, dir, Naming.RENAME_OVER, counts);
                    return;
                } finally {
                    ctx.timedClose(claim.held()); // after the rename: no other attempt replaced it meanwhile
                }
            }
        }
        throw Posix.failure("openat", Errno.EBUSY, e.path());
    }

    /** How a file being written gets its final name. */
    private enum Naming {
        /** An unnamed file (O_TMPFILE), linked at a name that was free. */
        LINK,
        /** A named temporary, renamed to a name that was free, never over what took it meanwhile. */
        RENAME_TO_FREE,
        /** A named temporary, renamed over the file there that the decision replaces. */
        RENAME_OVER,
        /** --inplace: created under its final name, so nothing to do when it is complete. */
        IN_PLACE
    }

    /**
     * A file whose name is free: unnamed until complete, then linked there (or a named temporary where
     * unnamed files are refused, or the final name itself with --inplace). False when the name was taken
     * meanwhile.
     */
    private boolean copyNew(Entry e, Fd dir, CopyCounts counts) {
        if (ctx.options.modes().inPlace()) return createInPlace(e, dir, counts);
        boolean finalMode = CreationMode.isFinal(e.stat(), ctx.parentState(e.parent()));
        Fd dst = temporaries.unnamed(dir, e.path(), createMode(e, finalMode), ctx.options.modes().verify());
        if (dst == null) return replace(e, dir, Naming.RENAME_TO_FREE, counts); // where unnamed files are refused
        return writeNew(e, dir, dst, Naming.LINK, null, finalMode, counts);
    }

    /** A marked temporary in the file's directory, renamed into place when complete; false when naming says the name must be free and it is not. */
    private boolean replace(Entry e, Fd dir, Naming naming, CopyCounts counts) {
        byte[] temporary = TemporaryNames.next(e.name());
        boolean finalMode = CreationMode.isFinal(e.stat(), ctx.parentState(e.parent()));
        Fd dst = temporaries.named(dir, e.path(), temporary, createMode(e, finalMode), ctx.options.modes().verify());
        if (dst == null) throw Posix.failure("openat", Errno.EEXIST, e.path());
        return writeNew(e, dir, dst, naming, temporary, finalMode, counts);
    }

    /** --inplace: the file is created under its final name; false when that was taken meanwhile. */
    private boolean createInPlace(Entry e, Fd dir, CopyCounts counts) {
        boolean finalMode = CreationMode.isFinal(e.stat(), ctx.parentState(e.parent()));
        int flags = ctx.layouts.createFlags((ctx.options.modes().verify() ? Linux.O_RDWR : Linux.O_WRONLY) | IN_PLACE_CREATE);
        Fd dst = ctx.steps.time(Step.OPEN_DST, () -> ctx.unlocker.unlockingParent(dir,
                () -> Posix.openatUnless(Errno.EEXIST, dir, e.name(), flags, createMode(e, finalMode))));
        if (dst == null) return false;
        return writeNew(e, dir, dst, Naming.IN_PLACE, null, finalMode, counts);
    }

    /** --inplace over a file the decision replaces (claimed by the caller): removed, then made again under its name. */
    private void replaceInPlace(Entry e, Fd dir, CopyCounts counts) {
        createOrReplace.unlink(dir, e.name());
        if (!createInPlace(e, dir, counts))
            throw new PosixException("copy", Errno.EEXIST, e.path(), "created at DST during the copy; left as it is");
    }

    /** Its rwx bits where that makes the final mode ({@link CreationMode}); owner-only where an fchmod follows anyway. */
    private static int createMode(Entry e, boolean finalMode) {
        return finalMode ? CreationMode.of(e.stat()) : NEW_FILE_MODE;
    }

    /**
     * Fills a file just made in dstDir with {@link #createMode}: its owner first, while it is empty,
     * then data and the rest of its metadata, times last, then its final name as naming says (from
     * temporary, for a named one). Closes dst. A file left unfinished is removed, unless unnamed.
     *
     * @return false when the file found its name taken (it is dropped, nothing named)
     */
    private boolean writeNew(Entry e, Fd dstDir, Fd dst, Naming naming, byte[] temporary, boolean finalMode, CopyCounts counts) {
        byte[] parent = e.parent();
        boolean placed = false;
        Fd src = null;
        try {
            ParentState where = ctx.parentState(parent);
            ctx.writer.applyOwner(dst, e.path(), e.stat(), ctx.euid, where.groupOfNewEntry(ctx.egid));
            src = ctx.openSource(e);
            // The layout on the descriptor that created the file, before its first byte.
            ctx.layouts.copy(src, dst, e.path(), ctx.steps);
            FsXattr source = ctx.readFsXattr(src, e.path());
            WantedFsXattr wanted = ctx.wanted(source);
            List<Xattr> xattrs = ctx.xattrsBesidesLayout(ctx.metadata.readXattrs(src, e.path()));
            // The temporary's name, for the path way's second look-up (that way always has one).
            byte[] current = temporary == null ? e.path() : PathBytes.join(parent, temporary);
            FsXattr held = where.projectOfNewFile();
            // XFS takes an extent-size hint only while the file has no extents: such a file gets its struct before the data.
            if (wanted != null && wanted.flags() && source.hasExtentSizeHint())
                held = ctx.metadata.writeFsXattr(dst, current, wanted, held, false);

            long bytes = copyData(e, src, dst);
            if (ctx.options.modes().verify()) checksums.verify(e, src, dst, ctx.steps);
            ctx.requireUnchanged(e, src); // after verify too: the bytes compared are the walk's file
            if (ctx.options.modes().fsync()) ctx.fsync(dst); // durable before the file gets its name

            if (where.defaultAcl()) dropInheritedXattrs(dst, xattrs);
            held = ctx.writer.applyAfterOwner(dst, current, e.stat(), xattrs, wanted, held, finalMode);
            switch (naming) {
                case LINK -> {
                    if (!temporaries.linkIntoPlace(dst, held, dstDir, e.name(), where)) return false;
                }
                case RENAME_TO_FREE -> {
                    if (!temporaries.renameToFreeName(dstDir, temporary, dst, held, e.name(), where)) return false;
                }
                case RENAME_OVER -> temporaries.renameIntoPlace(dstDir, temporary, dst, held, e.name(), where);
                case IN_PLACE -> { } // under its name from the start
            }
            placed = true;
            ctx.writer.applyLocks(dst, e.path(), wanted, held); // a locked file could be neither linked nor renamed
            counts.addCopied(e);
            counts.addBytes(bytes);
            if (ctx.options.modes().verify()) counts.addVerified(); // verify() threw otherwise
            return true;
        } finally {
            ctx.timedClose(src);
            if (!placed && temporary != null) temporaries.remove(dstDir, temporary);
            if (!placed && naming == Naming.IN_PLACE) temporaries.remove(dstDir, e.name()); // this attempt made it: a partial file goes
            ctx.timedClose(dst);
        }
    }

    /** The whole file's data; a read that fails because the source changed says so. */
    private long copyData(Entry e, Fd src, Fd dst) {
        long t = ctx.steps.start(Step.DATA);
        try {
            long bytes = ctx.data.copyRange(src, dst, 0, e.stat().size(), e.stat().maybeSparse());
            if (e.stat().maybeSparse()) Posix.ftruncate(dst, e.stat().size());
            return bytes;
        } catch (PosixException ex) {
            ctx.requireUnchanged(e, src);
            throw ex;
        } finally {
            ctx.steps.stop(Step.DATA, t);
        }
    }

    /** A default ACL on the parent gave the new file an access ACL the source may not have. */
    private void dropInheritedXattrs(Fd dst, List<Xattr> keep) {
        for (byte[] name : Posix.flistxattr(dst, inherited)) {
            boolean kept = Arrays.equals(name, temporaries.marker()) || keep.stream().anyMatch(x -> Arrays.equals(x.name(), name));
            if (!kept) Posix.fremovexattr(dst, name);
        }
    }

    // ---- hard links ---------------------------------------------------------------------------

    void link(HardLink link, CopyCounts counts) {
        Entry e = link.entry();
        try {
            Fd targetDir = ctx.destination.get(PathBytes.parent(link.target()));
            Fd dir = ctx.destination.get(e.parent());
            byte[] targetName = PathBytes.name(link.target());
            Boolean made = createOrReplace.run(e, dir, "linkat",
                    () -> linkOnce(targetDir, targetName, dir, e.name(), e.parent()) ? Boolean.TRUE : null,
                    existing -> Decision.ofLink(existing, ctx.statDestination(targetDir, targetName)),
                    (entry, where, existing, d, c) -> {
                        c.addLinkSkipped(entry);
                        return d;
                    }, counts);
            if (made != null) counts.addLink(e);
        } catch (PosixException ex) {
            counts.addFailure(e, Failure.of(e.path(), ex));
        }
    }

    private boolean linkOnce(Fd targetDir, byte[] targetName, Fd dir, byte[] name, byte[] dirPath) {
        return ctx.steps.time(Step.LINK, () -> {
            try {
                Posix.linkat(targetDir, targetName, dir, name);
                return true;
            } catch (PosixException ex) {
                if (ex.errno() == Errno.EEXIST) return false;
                if (ex.errno() == Errno.EXDEV && ctx.options.projectIds()) return linkAcrossProjects(targetDir, targetName, dir, name, dirPath);
                if (ex.errno() == Errno.EPERM && ctx.options.flags()) return linkToLocked(targetDir, targetName, dir, name, ex);
                throw ex;
            }
        });
    }

    /**
     * An immutable or append-only inode takes no new name (its first name was copied with its
     * flags, locks last): it is unlocked for the link and locked again at once.
     */
    private boolean linkToLocked(Fd targetDir, byte[] targetName, Fd dir, byte[] name, PosixException refused) {
        try (Fd target = Posix.openat(targetDir, targetName, Linux.O_RDONLY | Linux.O_NOFOLLOW | Linux.O_NONBLOCK, 0)) {
            FsXattr own = Posix.getFsXattr(target);
            if (own.locks() == 0) throw refused;
            return linkWhile(target, own, own.unlocked(), targetDir, targetName, dir, name);
        }
    }

    /**
     * XFS refuses a link into a PROJINHERIT directory of another project (EXDEV), though such
     * links exist in sources whose projects were set after linking. The inode takes the directory's
     * project for the link and gets its own back at once.
     */
    private boolean linkAcrossProjects(Fd targetDir, byte[] targetName, Fd dir, byte[] name, byte[] dirPath) {
        FsXattr dirProject = ctx.parentState(dirPath).project();
        if (dirProject == null || !dirProject.projInherit()) throw Posix.failure("linkat", Errno.EXDEV, name);
        try (Fd target = Posix.openat(targetDir, targetName, Linux.O_RDONLY | Linux.O_NOFOLLOW, 0)) {
            FsXattr own = Posix.getFsXattr(target);
            return linkWhile(target, own, own.withProject(dirProject.projid(), own.projInherit()), targetDir, targetName, dir, name);
        }
    }

    /** Links the open target's inode under name with its struct fsxattr set to during, then back to own; false if name exists. */
    private static boolean linkWhile(Fd target, FsXattr own, FsXattr during, Fd targetDir, byte[] targetName, Fd dir, byte[] name) {
        Posix.setFsXattr(target, during);
        try {
            return Posix.linkatUnlessTaken(targetDir, targetName, dir, name);
        } finally {
            Posix.setFsXattr(target, own);
        }
    }

    // ---- symlinks and special files -----------------------------------------------------------

    private void copySymlink(Entry e, CopyCounts counts) {
        Fd srcDir = ctx.source.get(e.parent());
        Fd dstDir = ctx.destination.get(e.parent());
        byte[] name = e.name();
        byte[] sourceName = ctx.sourceName(e);
        byte[] target = ctx.steps.time(Step.READLINK, () -> Posix.readlinkat(srcDir, sourceName));
        CreateOrReplace.Keeper sameTarget = (entry, dir, existing, d, c) ->
                sync.byName(entry, dir, existing, d.afterComparingData(Arrays.equals(Posix.readlinkat(dir, name), target)), c);
        if (createOrReplace.run(e, dstDir, "symlinkat", () -> createSymlink(target, dstDir, name) ? Boolean.TRUE : null,
                sameTarget, counts) == null) return;
        ParentState where = ctx.parentState(e.parent());
        ctx.writer.applyOwnerAt(dstDir, name, e.path(), e.stat(), ctx.euid, where.groupOfNewEntry(ctx.egid));
        ctx.writer.applyTimesAt(dstDir, name, e.stat());
        counts.addCopied(e);
    }

    private boolean createSymlink(byte[] target, Fd dir, byte[] name) {
        return createUnlessExists(Step.SYMLINK, () -> Posix.symlinkat(target, dir, name));
    }

    /** Runs a create call (timed as step); false when the name is taken. */
    private boolean createUnlessExists(Step step, Runnable create) {
        return ctx.steps.time(step, () -> {
            try {
                create.run();
                return true;
            } catch (PosixException ex) {
                if (ex.errno() == Errno.EEXIST) return false;
                throw ex;
            }
        });
    }

    private void copySpecial(Entry e, CopyCounts counts) {
        Fd dstDir = ctx.destination.get(e.parent());
        byte[] name = e.name();
        Stat s = e.stat();
        Decision fresh = ctx.decide(e, null); // a device as non-root is skipped whatever is there
        if (fresh.kind() == Decision.Kind.SKIP) {
            counts.addSkipped(e, Failure.of(e.path(), "mknodat", fresh.reason()));
            return;
        }
        if (createOrReplace.run(e, dstDir, "mknodat", () -> createSpecial(e, dstDir, name) ? Boolean.TRUE : null,
                sync::byName, counts) == null) return;
        ParentState where = ctx.parentState(e.parent());
        ctx.writer.applyOwnerAt(dstDir, name, e.path(), s, ctx.euid, where.groupOfNewEntry(ctx.egid));
        ctx.steps.time(Step.MODE, () -> Posix.chmodAt(dstDir, name, s.permissions()));
        ctx.writer.applyTimesAt(dstDir, name, s);
        counts.addCopied(e);
    }

    private boolean createSpecial(Entry e, Fd dir, byte[] name) {
        return createUnlessExists(Step.MKNOD, () -> Posix.mknodat(dir, name, e.type().formatBits() | NEW_FILE_MODE, e.stat().rdev()));
    }
}

package io.sparkdcp.copy;

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
 * Copies non-directory entries. A regular file costs one open on each side and nothing by path:
 * the destination is created exclusively first (so a re-run learns from EEXIST that it may skip,
 * without opening the source), then the source is opened and every step runs on the two fds.
 */
final class FileCopier {
    private static final int CREATE = Linux.O_WRONLY | Linux.O_CREAT | Linux.O_EXCL | Linux.O_NOFOLLOW;
    /** --verify reads the copy back through the descriptor that wrote it. */
    private static final int CREATE_READABLE = Linux.O_RDWR | Linux.O_CREAT | Linux.O_EXCL | Linux.O_NOFOLLOW;
    /** Special files are owner-only until their final owner and mode are set. */
    private static final int NEW_FILE_MODE = 0600;
    /** Makes --atomic create its temporaries by name, as where O_TMPFILE is refused; for tests of that way only. */
    static final String NAMED_TEMPORARIES_PROPERTY = "sparkdcp.test.namedTemporaries";

    private final CopyContext ctx;
    private final MetadataSync sync;
    private final CreateOrReplace createOrReplace;
    private final ContentComparer checksums = new ContentComparer();
    private final NativeBuffer inherited = new NativeBuffer(4096);
    private final byte[] marker;
    /** Held once: a method reference made per file would cost an allocation each (see {@link StepRecorder}). */
    private final CreateOrReplace.Keeper keepFile;
    private final CreateOrReplace.FileCreate createExclusive = this::createExclusive;
    /** Whether --atomic's temporaries start unnamed (O_TMPFILE); decided at the first, null before. */
    private Boolean unnamedTemporaries;

    FileCopier(CopyContext ctx, MetadataSync sync, CreateOrReplace createOrReplace) {
        this.ctx = ctx;
        this.sync = sync;
        this.createOrReplace = createOrReplace;
        this.marker = TemporaryNames.marker(ctx.privileged());
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

    private void copyRegular(Entry e, CopyCounts counts) {
        if (ctx.options.modes().atomic()) {
            copyAtomically(e, counts);
            return;
        }
        Fd dstDir = ctx.destination.get(e.parent());
        boolean finalMode = CreationMode.isFinal(e.stat(), ctx.parentState(e.parent()));
        int mode = createMode(e, finalMode);
        Fd dst = createOrReplace.runFile(e, dstDir, mode, createExclusive, keepFile, counts);
        if (dst != null) writeNew(e, dstDir, e.name(), dst, null, finalMode, counts);
    }

    /**
     * --atomic: the file is written under a temporary name in its own directory and renamed over
     * its final name only once data and metadata are complete, so the final name never holds half a file.
     */
    private void copyAtomically(Entry e, CopyCounts counts) {
        Fd dstDir = ctx.destination.get(e.parent());
        Stat existing = ctx.statDestination(dstDir, e.name());
        // Anything else there is replaced by the rename.
        if (existing != null) {
            Decision d = createOrReplace.settle(e, dstDir, existing, ctx.decide(e, existing), keepFile, counts);
            if (d.keeps()) return;
            ctx.requireNamesChangeable(e.parent(), e.path(), "rename");
            createOrReplace.unlockToReplace(e, dstDir, existing, d); // the rename replaces it
        } else {
            ctx.requireNamesChangeable(e.parent(), e.path(), "rename");
        }
        byte[] temporary = TemporaryNames.next(e.name());
        boolean finalMode = CreationMode.isFinal(e.stat(), ctx.parentState(e.parent()));
        Fd dst = createTemporary(dstDir, e.path(), temporary, createMode(e, finalMode));
        if (dst == null) throw Posix.failure("openat", Errno.EEXIST, e.path());
        writeNew(e, dstDir, temporary, dst, e.name(), finalMode, counts);
    }

    /** Its rwx bits where that makes the final mode ({@link CreationMode}); owner-only where an fchmod follows anyway. */
    private static int createMode(Entry e, boolean finalMode) {
        return finalMode ? CreationMode.of(e.stat()) : NEW_FILE_MODE;
    }

    /**
     * Fills a file just created as name in dstDir (dst) with {@link #createMode}: its owner first,
     * while it is empty, then data and the rest of its metadata and, when finalName is given, the
     * rename there; closes dst.
     */
    private void writeNew(Entry e, Fd dstDir, byte[] name, Fd dst, byte[] finalName, boolean finalMode, CopyCounts counts) {
        byte[] parent = e.parent();
        boolean dataComplete = false;
        boolean inPlace = finalName == null;
        Fd src = null;
        try {
            ParentState where = ctx.parentState(parent);
            ctx.writer.applyOwner(dst, e.stat(), ctx.euid, where.groupOfNewEntry(ctx.egid));
            if (inPlace && IncompleteMark.worthIt(e.stat().size(), ctx.options.modes())) IncompleteMark.mark(dst);
            src = ctx.openSource(e);
            // The layout on the descriptor that created the file, before its first byte.
            ctx.layouts.copy(src, dst, e.path(), ctx.steps);
            FsXattr source = ctx.readFsXattr(src, e.path());
            WantedFsXattr wanted = ctx.wanted(source);
            List<Xattr> xattrs = ctx.xattrsBesidesLayout(ctx.metadata.readXattrs(src, e.path()));
            // The name dst has now (the temporary's with --atomic), for the path way's second look-up.
            byte[] current = inPlace ? e.path() : PathBytes.join(parent, name);
            FsXattr held = where.projectOfNewFile();
            // XFS takes an extent-size hint only while the file has no extents: such a file gets its struct before the data.
            if (wanted != null && wanted.flags() && source.hasExtentSizeHint())
                held = ctx.metadata.writeFsXattr(dst, current, wanted, held, false);

            long bytes = copyData(e, src, dst);
            if (ctx.options.modes().verify()) checksums.verify(e, src, dst, ctx.steps);
            ctx.requireUnchanged(e, src); // after verify too: the bytes compared are the walk's file
            if (ctx.options.modes().fsync()) ctx.fsync(dst); // durable before times say "complete"
            dataComplete = true;

            // A metadata step that fails leaves the data in place but no final times, so a re-run redoes the file.
            if (where.defaultAcl()) dropInheritedXattrs(dst, xattrs);
            held = ctx.writer.applyAfterOwner(dst, current, e.stat(), xattrs, wanted, held, finalMode);
            if (!inPlace) {
                unmarkTemporary(dst);
                renameIntoPlace(dstDir, name, dst, finalName, where);
                inPlace = true;
            }
            ctx.writer.applyLocks(dst, e.path(), wanted, held); // a locked file could be neither renamed nor marked
            counts.addCopied(e);
            counts.addBytes(bytes);
            if (ctx.options.modes().verify()) counts.addVerified(); // verify() threw otherwise
        } finally {
            ctx.timedClose(src);
            // In place, a file with its data stays (a re-run sees no final times); a temporary never does.
            if (!inPlace) removeIncomplete(dstDir, name);
            else if (!dataComplete) createOrReplace.removeIncomplete(dstDir, name, dst); // before the close: under its lock
            ctx.timedClose(dst);
        }
    }

    /**
     * The temporary, already marked, or null when its name is taken. An unnamed file (O_TMPFILE) is
     * marked and only then linked under the name, so a kill at any point leaves nothing, or a marked
     * file a re-run removes. Where unnamed files are refused (decided once for the task) it is created
     * by name and marked at once: a kill between the two leaves an unmarked file, which stays.
     */
    private Fd createTemporary(Fd dir, byte[] path, byte[] name, int mode) {
        Fd unnamed = openUnnamed(dir, path, mode);
        if (unnamed == null) return createMarked(dir, name, mode);
        boolean named = false;
        try {
            markTemporary(unnamed);
            named = ctx.steps.time(Step.OPEN_DST, () -> linkUnlessTaken(unnamed, dir, name));
            return named ? unnamed : null;
        } finally {
            if (!named) ctx.timedClose(unnamed);
        }
    }

    /** An unnamed file in dir for the entry at path, or null where this task makes its temporaries by name. */
    private Fd openUnnamed(Fd dir, byte[] path, int mode) {
        if (unnamedTemporaries == null)
            unnamedTemporaries = !Boolean.getBoolean(NAMED_TEMPORARIES_PROPERTY) && Posix.procFdExists();
        if (!unnamedTemporaries) return null;
        int flags = ctx.layouts.createFlags(ctx.options.modes().verify() ? Linux.O_RDWR : Linux.O_WRONLY);
        Fd unnamed = ctx.steps.time(Step.OPEN_DST,
                () -> ctx.unlockingParent(dir, () -> Posix.openUnnamedUnlessRefused(dir, path, flags, mode)));
        if (unnamed == null) unnamedTemporaries = false;
        return unnamed;
    }

    /** The way without O_TMPFILE: created by name, then marked; null when the name is taken. */
    private Fd createMarked(Fd dir, byte[] name, int mode) {
        Fd made = ctx.unlockingParent(dir, () -> createExclusive(dir, name, mode));
        if (made == null) return null;
        boolean marked = false;
        try {
            markTemporary(made);
            marked = true;
            return made;
        } finally {
            if (!marked) {
                removeIncomplete(dir, name);
                ctx.timedClose(made);
            }
        }
    }

    /** False when the name is taken. */
    private boolean linkUnlessTaken(Fd unnamed, Fd dir, byte[] name) {
        try {
            ctx.unlockingParent(dir, () -> Posix.linkUnnamed(unnamed, dir, name));
            return true;
        } catch (PosixException ex) {
            if (ex.errno() != Errno.EEXIST) throw ex;
            return false;
        }
    }

    /**
     * The marker that tells a later run this file is a temporary of ours (a name can be anyone's).
     * Where the file system holds no such xattr the temporary goes unmarked: a killed run's then stays.
     */
    private void markTemporary(Fd dst) {
        long t = ctx.steps.start(Step.XATTR_SET);
        try {
            Posix.fsetxattr(dst, marker, TemporaryNames.MARKER_VALUE);
        } catch (PosixException ex) {
            if (ex.errno() != Errno.EOPNOTSUPP) throw ex;
        } finally {
            ctx.steps.stop(Step.XATTR_SET, t);
        }
    }

    /** Just before the rename: the final name never carries the marker. */
    private void unmarkTemporary(Fd dst) {
        long t = ctx.steps.start(Step.XATTR_SET);
        try {
            Posix.fremovexattr(dst, marker);
        } catch (PosixException ex) {
            if (ex.errno() != Errno.EOPNOTSUPP) throw ex;
        } finally {
            ctx.steps.stop(Step.XATTR_SET, t);
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

    /**
     * XFS refuses a rename into a PROJINHERIT directory (EXDEV) when the file's project differs from
     * the directory's, even within that directory: the file takes the directory's project for the
     * rename and gets its own back at once, on the descriptor still open.
     */
    private void renameIntoPlace(Fd dir, byte[] temporary, Fd file, byte[] finalName, ParentState where) {
        ctx.steps.time(Step.RENAME, () -> {
            try {
                ctx.unlockingParent(dir, () -> Posix.renameat(dir, temporary, dir, finalName));
            } catch (PosixException ex) {
                FsXattr dirProject = where.project();
                if (ex.errno() != Errno.EXDEV || dirProject == null || !dirProject.projInherit()) throw ex;
                FsXattr own = Posix.getFsXattr(file);
                Posix.setFsXattr(file, own.withProject(dirProject.projid(), own.projInherit()));
                try {
                    Posix.renameat(dir, temporary, dir, finalName);
                } finally {
                    Posix.setFsXattr(file, own);
                }
            }
        });
    }

    /** The new file, or null when the name is taken. */
    private Fd createExclusive(Fd dir, byte[] name, int mode) {
        int flags = ctx.layouts.createFlags(ctx.options.modes().verify() ? CREATE_READABLE : CREATE);
        long t = ctx.steps.start(Step.OPEN_DST);
        try {
            return Posix.openatUnless(Errno.EEXIST, dir, name, flags, mode);
        } finally {
            ctx.steps.stop(Step.OPEN_DST, t);
        }
    }

    /** A file this task created but could not fill must not look like a copy. */
    private void removeIncomplete(Fd dir, byte[] name) {
        try {
            Posix.unlinkat(dir, name, false);
        } catch (PosixException ignored) {
            // the failure that brought us here is the one to report
        }
    }

    /** A default ACL on the parent gave the new file an access ACL the source may not have. */
    private void dropInheritedXattrs(Fd dst, List<Xattr> keep) {
        for (byte[] name : Posix.flistxattr(dst, inherited)) {
            boolean kept = Arrays.equals(name, marker) || keep.stream().anyMatch(x -> Arrays.equals(x.name(), name));
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
            Posix.linkat(targetDir, targetName, dir, name);
            return true;
        } catch (PosixException ex) {
            if (ex.errno() == Errno.EEXIST) return false;
            throw ex;
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
        ctx.writer.applyOwnerAt(dstDir, name, e.stat(), ctx.euid, where.groupOfNewEntry(ctx.egid));
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
        ctx.writer.applyOwnerAt(dstDir, name, s, ctx.euid, where.groupOfNewEntry(ctx.egid));
        ctx.steps.time(Step.MODE, () -> Posix.chmodAt(dstDir, name, s.permissions()));
        ctx.writer.applyTimesAt(dstDir, name, s);
        counts.addCopied(e);
    }

    private boolean createSpecial(Entry e, Fd dir, byte[] name) {
        return createUnlessExists(Step.MKNOD, () -> Posix.mknodat(dir, name, e.type().formatBits() | NEW_FILE_MODE, e.stat().rdev()));
    }
}

package io.sparkdcp.copy;

import io.sparkdcp.copy.keep.MetadataAccess;
import io.sparkdcp.copy.steps.Step;
import io.sparkdcp.posix.Errno;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.FsXattr;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.NativeBuffer;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.PosixException;

/**
 * Where a file's data is written before it gets its final name, which then only ever holds a complete
 * file with its final times, whatever reads it meanwhile and whatever times SRC carries. A new file is
 * an unnamed file (O_TMPFILE) in its DST directory, linked under its final name once complete: a killed
 * run leaves nothing. A file that replaces another, or is copied in chunks, is a named temporary there
 * ({@link TemporaryNames}, marked), renamed over the final name. In its final directory either way, so
 * it inherits that directory's project ID and the link or rename stays within one directory.
 */
final class Temporaries {
    private static final int CREATE = Linux.O_CREAT | Linux.O_EXCL | Linux.O_NOFOLLOW;
    /** Makes every temporary a named one, as where O_TMPFILE is refused; for tests of that way only. */
    static final String NAMED_TEMPORARIES_PROPERTY = "sparkdcp.test.namedTemporaries";

    private final CopyContext ctx;
    private final byte[] marker;
    /** Whether unnamed files can be made and linked here; decided at the first, null before. */
    private Boolean unnamed;
    /** Whether linkat's AT_EMPTY_PATH names them (it needs CAP_DAC_READ_SEARCH); else /proc/self/fd. */
    private boolean emptyPath;
    /** Whether renameat2's RENAME_NOREPLACE was refused here (EINVAL, ENOSYS); then link and unlink instead. */
    private boolean noReplaceRefused;

    Temporaries(CopyContext ctx) {
        this.ctx = ctx;
        this.marker = TemporaryNames.marker(ctx.privileged());
        this.emptyPath = ctx.privileged();
    }

    /** The marker xattr's name, which a default ACL's clean-up must leave. */
    byte[] marker() {
        return marker;
    }

    /**
     * An unnamed file in dir for the entry at path, or null where this task makes named temporaries
     * (no O_TMPFILE, no /proc/self/fd, or metadata set by name, which needs one).
     */
    Fd unnamed(Fd dir, byte[] path, int mode, boolean readable) {
        if (unnamed == null)
            unnamed = !Boolean.getBoolean(NAMED_TEMPORARIES_PROPERTY) && ctx.options.xattrAccess() != MetadataAccess.PATH
                    && Posix.procFdExists();
        if (!unnamed) return null;
        int flags = ctx.layouts.createFlags(readable ? Linux.O_RDWR : Linux.O_WRONLY);
        long t = ctx.steps.start(Step.OPEN_DST);
        Fd made;
        try {
            made = openUnnamed(dir, path, flags, mode);
        } finally {
            ctx.steps.stop(Step.OPEN_DST, t);
        }
        if (made == null) unnamed = false;
        return made;
    }

    /**
     * {@link Unlocker#unlockingParent} without a lambda to capture the arguments: it runs for every file.
     * Once more too after an ENOSPC with room made ({@link CopyContext#roomMadeAfter}).
     */
    private Fd openUnnamed(Fd dir, byte[] path, int flags, int mode) {
        try {
            return Posix.openUnnamedUnlessRefused(dir, path, flags, mode);
        } catch (PosixException ex) {
            if (!ctx.unlocker.unlockedAfter(ex, dir) && !ctx.roomMadeAfter(ex, dir)) throw ex;
            return Posix.openUnnamedUnlessRefused(dir, path, flags, mode);
        }
    }

    /**
     * A marked temporary named name in dir, or null when the name is taken. An unnamed file is marked
     * and only then linked under the name, so a kill at any point leaves nothing, or a marked file a
     * later run removes. Where unnamed files are refused it is created by name and marked at once: a
     * kill between the two leaves an unmarked file, which stays (never under a final name).
     */
    Fd named(Fd dir, byte[] path, byte[] name, int mode, boolean readable) {
        Fd file = unnamed(dir, path, mode, readable);
        if (file == null) return createMarked(dir, name, mode, readable);
        boolean linked = false;
        try {
            mark(file);
            linked = ctx.steps.time(Step.OPEN_DST, () -> linkUnlessTaken(file, dir, name));
            return linked ? file : null;
        } finally {
            if (!linked) ctx.timedClose(file);
        }
    }

    private Fd createMarked(Fd dir, byte[] name, int mode, boolean readable) {
        int flags = ctx.layouts.createFlags((readable ? Linux.O_RDWR : Linux.O_WRONLY) | CREATE);
        Fd made = ctx.steps.time(Step.OPEN_DST,
                () -> ctx.unlocker.unlockingParent(dir, () -> Posix.openatUnless(Errno.EEXIST, dir, name, flags, mode)));
        if (made == null) return null;
        boolean marked = false;
        try {
            mark(made);
            marked = true;
            return made;
        } finally {
            if (!marked) {
                remove(dir, name);
                ctx.timedClose(made);
            }
        }
    }

    /**
     * Names a complete unnamed file at its final name in dir; false when the name is taken (another
     * attempt or a user made it meanwhile: what is there is looked at again).
     */
    boolean linkIntoPlace(Fd file, FsXattr held, Fd dir, byte[] name, ParentState where) {
        long t = ctx.steps.start(Step.LINK); // no lambdas: it runs for every file
        try {
            boolean lent = lendsProject(held, where);
            if (lent) Posix.setFsXattr(file, held.withProject(where.project().projid(), held.projInherit()));
            try {
                return linkUnlessTaken(file, dir, name);
            } catch (PosixException ex) {
                if (lent || ex.errno() != Errno.EXDEV) throw ex;
                return acrossProjects(file, null, where, () -> linkUnlessTaken(file, dir, name)); // its project unknown
            } finally {
                if (lent) Posix.setFsXattr(file, held);
            }
        } finally {
            ctx.steps.stop(Step.LINK, t);
        }
    }

    /** Whether a file of project held (null: unknown) takes dir's for its link or rename there ({@link #acrossProjects}). */
    private static boolean lendsProject(FsXattr held, ParentState where) {
        FsXattr dirProject = where.project();
        return held != null && dirProject != null && dirProject.projInherit() && held.projid() != dirProject.projid();
    }

    /**
     * Renames a complete named temporary over the final name in dir, replacing the file there that the
     * caller decided to replace; removes its marker first.
     */
    void renameIntoPlace(Fd dir, byte[] temporary, Fd file, FsXattr held, byte[] finalName, ParentState where) {
        unmark(file);
        ctx.steps.time(Step.RENAME, () -> acrossProjects(file, held, where, () -> {
            ctx.unlocker.unlockingParent(dir, () -> Posix.renameat(dir, temporary, dir, finalName));
            return true;
        }));
    }

    /**
     * Renames a complete named temporary to a final name in dir that was free when looked at; false,
     * nothing renamed, when something took the name meanwhile (a user, another attempt): that stays.
     * Where renameat2's RENAME_NOREPLACE is refused (Lustre, FUSE) the temporary is linked at the name,
     * which fails the same way, and its own name removed: a kill between the two leaves a second,
     * unmarked name of a complete file. The marker goes first either way.
     */
    boolean renameToFreeName(Fd dir, byte[] temporary, Fd file, FsXattr held, byte[] finalName, ParentState where) {
        unmark(file);
        long t = ctx.steps.start(Step.RENAME);
        try {
            if (!noReplaceRefused) {
                try {
                    return acrossProjects(file, held, where,
                            () -> ctx.unlocker.unlockingParent(dir, () -> Posix.renameatNoReplace(dir, temporary, dir, finalName)));
                } catch (PosixException ex) {
                    if (ex.errno() != Errno.EINVAL && ex.errno() != Errno.ENOSYS) throw ex;
                    noReplaceRefused = true;
                }
            }
            boolean linked = acrossProjects(file, held, where, () -> ctx.unlocker.unlockingParent(dir, () -> Posix.linkatUnlessTaken(dir, temporary, dir, finalName)));
            // Only once the file's own project is back on it: a FUSE file system finds an open file by its name.
            if (linked) remove(dir, temporary); // complete under its final name: a name left here is only a second link
            return linked;
        } finally {
            ctx.steps.stop(Step.RENAME, t);
        }
    }

    /**
     * XFS refuses a link or rename into a PROJINHERIT directory (EXDEV) when the file's project differs
     * from the directory's, even within that directory: the file takes the directory's project for the
     * call and gets its own back at once, on the descriptor still open. Where the file's project is known
     * (held: what was set on it; null: unknown) and differs, that is done at once, without the refused call.
     */
    private static boolean acrossProjects(Fd file, FsXattr held, ParentState where, java.util.function.BooleanSupplier call) {
        FsXattr dirProject = where.project();
        if (lendsProject(held, where)) {
            Posix.setFsXattr(file, held.withProject(dirProject.projid(), held.projInherit()));
            try {
                return call.getAsBoolean();
            } finally {
                Posix.setFsXattr(file, held);
            }
        }
        try {
            return call.getAsBoolean();
        } catch (PosixException ex) {
            if (ex.errno() != Errno.EXDEV || dirProject == null || !dirProject.projInherit()) throw ex;
            FsXattr own = Posix.getFsXattr(file);
            Posix.setFsXattr(file, own.withProject(dirProject.projid(), own.projInherit()));
            try {
                return call.getAsBoolean();
            } finally {
                Posix.setFsXattr(file, own);
            }
        }
    }

    /** False when the name is taken. */
    private boolean linkUnlessTaken(Fd file, Fd dir, byte[] name) {
        try {
            linkUnlocking(file, dir, name);
            return true;
        } catch (PosixException ex) {
            if (ex.errno() != Errno.EEXIST) throw ex;
            return false;
        }
    }

    /** {@link #openUnnamed}'s retries, for the link that names the file. */
    private void linkUnlocking(Fd file, Fd dir, byte[] name) {
        try {
            link(file, dir, name);
        } catch (PosixException ex) {
            if (!ctx.unlocker.unlockedAfter(ex, dir) && !ctx.roomMadeAfter(ex, dir)) throw ex;
            link(file, dir, name);
        }
    }

    private void link(Fd file, Fd dir, byte[] name) {
        if (emptyPath) {
            try {
                Posix.linkUnnamedByDescriptor(file, dir, name);
                return;
            } catch (PosixException ex) {
                if (ex.errno() != Errno.ENOENT) throw ex;
                emptyPath = false; // refused without CAP_DAC_READ_SEARCH (in a user namespace, say)
            }
        }
        Posix.linkUnnamed(file, dir, name);
    }

    /**
     * The marker that tells a later run this file is a temporary of ours (a name can be anyone's).
     * Where the file system holds no such xattr the temporary goes unmarked: a killed run's then stays.
     */
    private void mark(Fd file) {
        long t = ctx.steps.start(Step.XATTR_SET);
        try {
            Posix.fsetxattr(file, marker, TemporaryNames.MARKER_VALUE);
        } catch (PosixException ex) {
            if (ex.errno() != Errno.EOPNOTSUPP) throw ex;
        } finally {
            ctx.steps.stop(Step.XATTR_SET, t);
        }
    }

    /** Just before the rename: the final name never carries the marker. */
    private void unmark(Fd file) {
        long t = ctx.steps.start(Step.XATTR_SET);
        try {
            Posix.fremovexattr(file, marker);
        } catch (PosixException ex) {
            if (ex.errno() != Errno.EOPNOTSUPP && ex.errno() != Errno.ENODATA) throw ex;
        } finally {
            ctx.steps.stop(Step.XATTR_SET, t);
        }
    }

    /**
     * Removes the entry at name in dir if it is a marked temporary (a regular file with our marker: one an
     * earlier attempt made); anything else there stays.
     */
    void removeIfMarked(Fd dir, byte[] name) {
        if (isMarked(dir, name, marker, new NativeBuffer(64))) remove(dir, name);
    }

    /** Whether the entry at name in dir is a regular file that carries the marker named markerName. */
    static boolean isMarked(Fd dir, byte[] name, byte[] markerName, NativeBuffer buffer) {
        try (Fd file = Posix.openat(dir, name, Linux.O_RDONLY | Linux.O_NOFOLLOW | Linux.O_NONBLOCK, 0)) {
            return Posix.fstat(file).type() == io.sparkdcp.posix.FileType.FILE && Posix.fgetxattr(file, markerName, buffer) != null;
        } catch (PosixException ex) {
            if (ex.errno() == Errno.ENOENT || ex.errno() == Errno.ELOOP || ex.errno() == Errno.EOPNOTSUPP) return false;
            throw ex;
        }
    }

    /** Removes a temporary this task made and could not finish; the failure that brought us here is the one to report. */
    void remove(Fd dir, byte[] name) {
        try {
            Posix.unlinkat(dir, name, false);
        } catch (PosixException ignored) {
            // the failure that brought us here is the one to report
        }
    }
}

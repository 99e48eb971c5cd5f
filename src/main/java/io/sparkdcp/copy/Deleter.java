package io.sparkdcp.copy;

import io.sparkdcp.copy.decision.Protection;
import io.sparkdcp.copy.steps.Step;
import io.sparkdcp.posix.Errno;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.NativeBuffer;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.PosixException;
import io.sparkdcp.posix.Stat;
import io.sparkdcp.walk.Entry;
import io.sparkdcp.walk.Filter;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

/**
 * Removes destination entries the source no longer has, by name in their parent, which is opened
 * beneath the destination root without following symlinks: a directory swapped for a symlink fails
 * the entry instead of deleting where it points, and an entry on another mount (a mount point inside
 * DST) fails instead of being deleted. Directories go after their children (deepest first), and only when empty.
 * An entry immutable or append-only at DST, or one in a directory so locked, is never deleted
 * ({@link Protection}): the source has nothing there whose state the deletion would give it, but for a
 * type change, where the source's entry carries the same locks.
 */
final class Deleter {
    static final String KEPT_BY_FILTERS = "not deleted: a non-empty directory, whose entries the filters exclude (kept at DST)";
    private static final int DIRECTORY_BUFFER = 16 * 1024;
    private final CopyContext ctx;
    /** Whether a parent directory is on the destination root's mount, by parent path. */
    private final Map<ByteBuffer, Boolean> onRootMount = new HashMap<>();
    private long rootMount = Long.MIN_VALUE;

    Deleter(CopyContext ctx) { this.ctx = ctx; }

    /** @param kept what the walk of DST leaves out: filter-excluded entries, which stay at DST */
    void delete(Entry e, Filter kept, CopyCounts counts) {
        if (e.isRoot()) throw new IllegalArgumentException("the destination root is never deleted");
        try {
            Fd parent = ctx.destination.get(e.parent());
            if (!onRootMount(e.parent(), parent)) {
                counts.addFailure(Failure.of(e.path(), "delete", "on another mount than the destination root "
                        + "(a mount point inside DST): never deleted"));
                return;
            }
            // Before anything is unlocked: its directory, then the entry by the walk's look at it.
            ctx.unlocker.requireNamesChangeable(e.parent(), e.path(), "unlinkat");
            if (e.stat().locks() != 0) {
                int sourceLocks = locksReplacing(e);
                int locked = Protection.locks(e.stat().locks(), sourceLocks, ctx.options.flags());
                if (locked != 0) throw Protection.refusal("unlinkat", e.path(), Protection.reason(locked));
                ctx.unlocker.unlock(parent, e.name(), sourceLocks, e.path());
            }
            boolean directory = e.type() == FileType.DIRECTORY;
            if (directory) ctx.destination.evict(e.path());
            try {
                ctx.steps.time(Step.UNLINK, () -> ctx.unlocker.unlockingParent(parent, () -> Posix.unlinkat(parent, e.name(), directory)));
            } catch (PosixException ex) {
                // The entry was locked since the walk (a directory that stays is locked again when it is finished).
                if (ex.errno() != Errno.EPERM || !lockable(e)) throw ex;
                ctx.unlocker.unlock(parent, e.name(), locksReplacing(e), e.path());
                ctx.steps.time(Step.UNLINK, () -> Posix.unlinkat(parent, e.name(), directory));
            }
            counts.addDeleted(e);
        } catch (PosixException ex) {
            if (ex.errno() == Errno.ENOENT) return; // gone already: a retried task, or someone else
            if (ex.errno() == Errno.ENOTEMPTY) {
                // rsync's "cannot delete non-empty directory", an information: what is left is what the filters keep.
                if (onlyKeptInside(e.parent(), e.name(), e.path(), kept))
                    counts.addNotice(Failure.of(e.path(), "delete", KEPT_BY_FILTERS));
                else counts.addFailure(e, new Failure(PathBytes.display(e.path()), ex.call(), ex.errnoName(), Protection.NOT_EMPTIED));
                return;
            }
            counts.addFailure(e, Failure.of(e.path(), ex));
        }
    }

    /**
     * Whether everything left in the directory is out of the DST walk's reach (excluded, so protected
     * from deletion), directly or inside directories of which the same holds. Unreadable: false.
     */
    private boolean onlyKeptInside(byte[] parentPath, byte[] name, byte[] path, Filter kept) {
        if (kept.none()) return false;
        try {
            return onlyKeptInside(ctx.destination.get(parentPath), name, path, kept);
        } catch (PosixException ex) {
            return false;
        }
    }

    private boolean onlyKeptInside(Fd parent, byte[] name, byte[] path, Filter kept) {
        try (Fd dir = Posix.openat(parent, name, Linux.O_RDONLY | Linux.O_DIRECTORY | Linux.O_NOFOLLOW | Linux.O_CLOEXEC, 0)) {
            for (Posix.DirEntry d : Posix.readDirectory(dir, new NativeBuffer(DIRECTORY_BUFFER))) {
                byte[] child = PathBytes.join(path, d.name());
                boolean directory = isDirectory(dir, d);
                if (!kept.lists(child, directory)) continue;
                if (!directory || !onlyKeptInside(dir, d.name(), child, kept)) return false;
            }
            return true;
        }
    }

    /** By the entry's type as getdents gives it, or a stat where the file system gives none. */
    private static boolean isDirectory(Fd dir, Posix.DirEntry d) {
        if (d.dType() != Linux.DT_UNKNOWN) return d.dType() == Linux.DT_DIR;
        Stat st = Posix.statAtIfExists(dir, d.name());
        return st != null && st.type() == FileType.DIRECTORY;
    }

    /**
     * The locks the deletion of e may clear: those of the source's entry at its path when that is of
     * another type (the copy creates it next, locked as it is), else none: the source has nothing there.
     */
    private int locksReplacing(Entry e) {
        Stat there;
        try {
            Fd dir = ctx.source.get(e.parent());
            there = ctx.steps.time(Step.STAT_SRC, () -> Posix.statAtIfExists(dir, e.name()));
        } catch (PosixException ex) {
            there = null; // no such directory in the source, or one we may not open: nothing there
        }
        return there != null && there.type() != e.type() ? there.locks() : 0;
    }

    /** Only files and directories can be immutable or append-only (and opening others could block). */
    private static boolean lockable(Entry e) {
        return e.type() == FileType.FILE || e.type() == FileType.DIRECTORY;
    }

    /** Deletion never crosses a mount point, bind mounts included: mount IDs, not devices, tell. */
    private boolean onRootMount(byte[] relPath, Fd dir) {
        if (rootMount == Long.MIN_VALUE) rootMount = Posix.identity(ctx.destination.root()).mountId();
        return onRootMount.computeIfAbsent(ByteBuffer.wrap(relPath), k -> {
            long t = System.nanoTime();
            try {
                return Posix.identity(dir).mountId() == rootMount;
            } finally {
                ctx.steps.record(Step.STAT_DST, System.nanoTime() - t);
            }
        });
    }
}

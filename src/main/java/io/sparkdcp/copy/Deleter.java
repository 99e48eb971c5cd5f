package io.sparkdcp.copy;

import io.sparkdcp.copy.decision.Protection;
import io.sparkdcp.copy.steps.Step;
import io.sparkdcp.posix.Errno;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.PosixException;
import io.sparkdcp.posix.Stat;
import io.sparkdcp.walk.Entry;

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
    private final CopyContext ctx;
    /** Whether a parent directory is on the destination root's mount, by parent path. */
    private final Map<ByteBuffer, Boolean> onRootMount = new HashMap<>();
    private long rootMount = Long.MIN_VALUE;

    Deleter(CopyContext ctx) { this.ctx = ctx; }

    void delete(Entry e, CopyCounts counts) {
        if (e.isRoot()) throw new IllegalArgumentException("the destination root is never deleted");
        try {
            Fd parent = ctx.destination.get(e.parent());
            if (!onRootMount(e.parent(), parent)) {
                counts.addFailure(Failure.of(e.path(), "delete", "on another mount than the destination root "
                        + "(a mount point inside DST): never deleted"));
                return;
            }
            // Before anything is unlocked: its directory, then the entry by the walk's look at it.
            ctx.requireNamesChangeable(e.parent(), e.path(), "unlinkat");
            if (e.stat().locks() != 0) {
                int sourceLocks = locksReplacing(e);
                int locked = Protection.locks(e.stat().locks(), sourceLocks, ctx.options.flags());
                if (locked != 0) throw Protection.refusal("unlinkat", e.path(), Protection.reason(locked));
                ctx.unlock(parent, e.name(), sourceLocks, e.path());
            }
            boolean directory = e.type() == FileType.DIRECTORY;
            if (directory) ctx.destination.evict(e.path());
            try {
                ctx.steps.time(Step.UNLINK, () -> ctx.unlockingParent(parent, () -> Posix.unlinkat(parent, e.name(), directory)));
            } catch (PosixException ex) {
                // The entry was locked since the walk (a directory that stays is locked again when it is finished).
                if (ex.errno() != Errno.EPERM || !lockable(e)) throw ex;
                ctx.unlock(parent, e.name(), locksReplacing(e), e.path());
                ctx.steps.time(Step.UNLINK, () -> Posix.unlinkat(parent, e.name(), directory));
            }
            counts.addDeleted(e);
        } catch (PosixException ex) {
            if (ex.errno() == Errno.ENOENT) return; // gone already: a retried task, or someone else
            if (ex.errno() == Errno.ENOTEMPTY) {
                counts.addFailure(e, new Failure(PathBytes.display(e.path()), ex.call(), ex.errnoName(), Protection.NOT_EMPTIED));
                return;
            }
            counts.addFailure(e, Failure.of(e.path(), ex));
        }
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

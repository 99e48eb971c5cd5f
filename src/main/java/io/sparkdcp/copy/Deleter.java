package io.sparkdcp.copy;

import io.sparkdcp.posix.Errno;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.PosixException;
import io.sparkdcp.walk.Entry;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

/**
 * Removes destination entries the source no longer has, by name in their parent, which is opened
 * beneath the destination root without following symlinks: a directory swapped for a symlink fails
 * the entry instead of deleting where it points, and an entry on another mount (a mount point inside
 * DST) fails instead of being deleted. Directories go after their children (deepest first), and only when empty.
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
            boolean directory = e.type() == FileType.DIRECTORY;
            if (directory) ctx.destination.evict(e.path());
            try {
                ctx.steps.time(Step.UNLINK, () -> ctx.unlockingParent(parent, () -> Posix.unlinkat(parent, e.name(), directory)));
            } catch (PosixException ex) {
                // The entry itself is locked (a directory that stays is locked again when it is finished).
                if (ex.errno() != Errno.EPERM || !ctx.options.flags() || !lockable(e)) throw ex;
                ctx.unlock(parent, e.name());
                ctx.steps.time(Step.UNLINK, () -> Posix.unlinkat(parent, e.name(), directory));
            }
            counts.addDeleted(e);
        } catch (PosixException ex) {
            if (ex.errno() == Errno.ENOENT) return; // gone already: a retried task, or someone else
            counts.addFailure(e, Failure.of(e.path(), ex));
        }
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

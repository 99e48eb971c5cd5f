package io.sparkdcp.copy;

import io.sparkdcp.posix.Errno;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.PosixException;
import io.sparkdcp.walk.Entry;

/**
 * Removes destination entries the source no longer has, by name in their parent, which is opened
 * beneath the destination root without following symlinks: a directory swapped for a symlink fails
 * the entry instead of deleting where it points. Directories go after their children (deepest first),
 * and only when empty.
 */
final class Deleter {
    private final CopyContext ctx;

    Deleter(CopyContext ctx) { this.ctx = ctx; }

    void delete(Entry e, CopyCounts counts) {
        if (e.isRoot()) throw new IllegalArgumentException("the destination root is never deleted");
        try {
            Fd parent = ctx.destination.get(e.parent());
            boolean directory = e.type() == FileType.DIRECTORY;
            if (directory) ctx.destination.evict(e.path());
            ctx.steps.time(Step.UNLINK, () -> Posix.unlinkat(parent, e.name(), directory));
            counts.addDeleted(e);
        } catch (PosixException ex) {
            if (ex.errno() == Errno.ENOENT) return; // gone already: a retried task, or someone else
            counts.addFailure(e, Failure.of(e.path(), ex));
        }
    }
}

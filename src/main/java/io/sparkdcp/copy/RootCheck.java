package io.sparkdcp.copy;

import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.posix.DirectoryIdentity;
import io.sparkdcp.posix.Errno;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.PosixException;

/**
 * Opens a root of the copy the way every task must: by its real path without following any symlink,
 * and only if it is still the directory the driver pinned. A root or one of its parents swapped
 * (for a symlink, or for another directory) after the walk stops the task before it writes anything.
 */
public final class RootCheck {
    private RootCheck() {}

    /** The root changed since the driver resolved it: the run must stop, not write elsewhere. */
    public static final class RootChangedException extends IllegalStateException {
        RootChangedException(String message) { super(message); }
    }

    /** @param which "source" or "destination", for the message */
    public static Fd open(byte[] path, DirectoryIdentity pinned, String which) {
        Fd fd;
        try {
            fd = Posix.openNoSymlinks(path, Linux.O_RDONLY | Linux.O_DIRECTORY);
        } catch (PosixException e) {
            throw new RootChangedException(which + " " + PathBytes.display(path) + " cannot be opened as the directory the run "
                    + "started with (" + e.errnoName() + ": " + e.reason()
                    + (e.errno() == Errno.ELOOP || e.errno() == Errno.ENOTDIR ? "; it or a parent is now a symlink or not a directory" : "")
                    + "); nothing written");
        }
        if (pinned == null) return fd;
        DirectoryIdentity now = Posix.identity(fd);
        if (!pinned.sameAs(now)) {
            fd.close();
            throw new RootChangedException(which + " " + PathBytes.display(path) + " is no longer the directory the run started "
                    + "with (was " + pinned + ", now " + now + "); nothing written");
        }
        return fd;
    }

    /** A task's two roots, each opened by {@link #open}. */
    public record Both(Fd source, Fd destination) {}

    /** Both roots of {@code options}, checked against the identities the driver pinned; neither left open on a failure. */
    public static Both openBoth(CopyOptions options) {
        Fd source = open(options.sourceRoot(), options.sourceId(), "source");
        try {
            return new Both(source, open(options.destinationRoot(), options.destinationId(), "destination"));
        } catch (RuntimeException e) {
            source.close();
            throw e;
        }
    }
}

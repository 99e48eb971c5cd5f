package io.sparkdcp.roots;

import io.sparkdcp.posix.DirectoryIdentity;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.PosixException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One run at a time in a tree: an exclusive {@code flock} on the DST root directory and a shared one on
 * every directory above it, found by identity ({@link Containment#upward}: through ".." and the real
 * parents of a bind mount's root). A run whose DST is another's, inside it or above it meets the other's
 * lock and is refused; runs into sibling DSTs share their common ancestors' locks and run together. The
 * locks need no file anywhere, so no copy, sync or --delete ever sees them, and the kernel drops them
 * when the driver dies. A directory above DST that this user cannot read, or whose file system has no
 * flock, cannot be locked by anyone: it is passed over.
 */
final class DestinationLock implements AutoCloseable {
    private static final byte[] DOT = {'.'};
    private final List<Fd> ancestors;

    private DestinationLock(List<Fd> ancestors) {
        this.ancestors = ancestors;
    }

    /**
     * Locks {@code destination} (the lock lasts while that descriptor is open) and the directories above it
     * (while this lock is open). {@code named}: DST's path, for the refusal.
     *
     * @throws UsageException naming the holder when another run holds DST, a directory inside it or one above it
     */
    static DestinationLock take(Fd destination, byte[] named) {
        DirectoryIdentity id = Posix.identity(destination);
        if (!Posix.tryLockExclusive(destination)) throw heldAt(destination, id, named);
        return new DestinationLock(shareUpward(destination, id, named));
    }

    /**
     * Before a missing DST is made in {@code deepestExisting}: refused, with nothing made, when another run
     * holds that directory or one above it (DST would be inside its DST). {@link #take} decides again
     * once DST exists.
     */
    static void checkBeforeCreating(byte[] deepestExisting, byte[] named) {
        try (Fd dir = Posix.openNoSymlinks(deepestExisting, Linux.O_RDONLY | Linux.O_DIRECTORY)) {
            shareUpward(dir, null, named).forEach(Fd::close);
        }
    }

    /** Shared locks on {@code from} and every directory above it, but {@code skip}'s inode (DST's, held alone already). */
    private static List<Fd> shareUpward(Fd from, DirectoryIdentity skip, byte[] named) {
        List<Fd> held = new ArrayList<>();
        // A directory seen twice (DST again, through the real parents of a bind mount's root) would meet its own lock.
        Set<List<Long>> locked = new HashSet<>();
        if (skip != null) locked.add(List.of(skip.dev(), skip.ino()));
        try {
            Containment.upward(from, MountTable.read(), (dir, above) -> {
                if (!locked.add(List.of(above.dev(), above.ino()))) return false;
                Fd lockable = openToLock(dir);
                if (lockable == null) return false;
                held.add(lockable);
                if (!tryShared(lockable))
                    throw new UsageException("another spark-dcp run holds DST " + shown(lockable) + ", and DST " + PathBytes.display(named)
                            + " is inside it (" + holder(above) + "); wait for it to end, or stop it");
                return false;
            });
            return held;
        } catch (RuntimeException e) {
            held.forEach(Fd::close);
            throw e;
        }
    }

    @Override
    public void close() {
        ancestors.forEach(Fd::close);
    }

    /** DST itself is held: by a run into DST (exclusive), or by runs into DSTs below it (shared only). */
    private static UsageException heldAt(Fd destination, DirectoryIdentity id, byte[] named) {
        String holder = holder(id); // before the probe below, which would list this process too
        boolean sharedOnly = tryShared(destination); // released when the caller closes DST's descriptor
        return new UsageException("another spark-dcp run holds " + (sharedOnly ? "a DST inside DST " : "DST ") + PathBytes.display(named)
                + " (" + holder + "); wait for it to end, or stop it");
    }

    /** A descriptor flock can use (the walk's own are closed after each visit); null when this user cannot read the directory. */
    private static Fd openToLock(Fd dir) {
        try {
            return Posix.openat(dir, DOT, Linux.O_RDONLY | Linux.O_DIRECTORY, 0);
        } catch (PosixException e) {
            return null;
        }
    }

    /** A shared lock, or true where the file system has no flock: nobody can hold that directory. */
    private static boolean tryShared(Fd dir) {
        try {
            return Posix.tryLockShared(dir);
        } catch (PosixException e) {
            return true;
        }
    }

    /** The directory's path as this process sees it now, for the message. */
    private static String shown(Fd dir) {
        try {
            return Files.readSymbolicLink(Path.of("/proc/self/fd/" + dir.fd())).toString();
        } catch (IOException | RuntimeException e) {
            return "a directory above it";
        }
    }

    /** "pid N, host H" from /proc/locks when the holder is on this host; the lock itself says no more. */
    private static String holder(DirectoryIdentity dir) {
        String host = hostname();
        try {
            for (String line : Files.readAllLines(Path.of("/proc/locks"))) {
                // 1: FLOCK  ADVISORY  WRITE 12345 08:01:131 0 EOF  (device as hex major:minor, then the inode)
                String[] f = line.trim().split("\\s+");
                if (f.length < 6 || !f[1].equals("FLOCK")) continue;
                String[] dev = f[5].split(":");
                if (dev.length != 3 || Long.parseLong(dev[2]) != dir.ino()) continue;
                long major = Long.parseLong(dev[0], 16), minor = Long.parseLong(dev[1], 16);
                if (Linux.makedev(major, minor) == dir.dev()) return "pid " + f[4] + ", host " + host;
            }
        } catch (IOException | RuntimeException e) {
            // fall through: the holder is unknown, the refusal stands
        }
        return "pid unknown: held from another host";
    }

    private static String hostname() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
        } catch (IOException e) {
            return "unknown";
        }
    }
}

package io.sparkdcp.job;

import io.sparkdcp.copy.CopyOptions;
import io.sparkdcp.copy.RootCheck;
import io.sparkdcp.posix.DirectoryIdentity;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The driver's hold on the roots for one run: their identities pinned (checking any that {@link Roots}
 * pinned before), and an exclusive {@code flock} on the destination root directory itself, so one run
 * at a time writes into a DST. The lock needs no file in DST, so no source entry can collide with it
 * and no copy, sync or --delete ever sees it; the kernel drops it when the driver dies.
 */
public final class HeldRoots implements AutoCloseable {
    private final Fd destination;
    private final CopyOptions pinned;

    private HeldRoots(Fd destination, CopyOptions pinned) {
        this.destination = destination;
        this.pinned = pinned;
    }

    public static HeldRoots take(CopyOptions copy) {
        DirectoryIdentity sourceId;
        try (Fd source = RootCheck.open(copy.sourceRoot(), copy.sourceId(), "source")) {
            sourceId = Posix.identity(source);
        }
        Fd destination = RootCheck.open(copy.destinationRoot(), copy.destinationId(), "destination");
        try {
            if (!Posix.tryLockExclusive(destination))
                throw new UsageException("another spark-dcp run holds DST " + PathBytes.display(copy.destinationRoot())
                        + " (" + holder(Posix.identity(destination)) + "); wait for it to end, or stop it");
            return new HeldRoots(destination, copy.withRootIds(sourceId, Posix.identity(destination)));
        } catch (RuntimeException e) {
            destination.close();
            throw e;
        }
    }

    /** The copy's options with both roots pinned. */
    public CopyOptions pinned() { return pinned; }

    @Override
    public void close() {
        destination.close();
    }

    /** "pid N, host H" from /proc/locks when the holder is on this host; the lock itself says no more. */
    static String holder(DirectoryIdentity dir) {
        String host = hostname();
        try {
            for (String line : Files.readAllLines(Path.of("/proc/locks"))) {
                // 1: FLOCK  ADVISORY  WRITE 12345 08:01:131 0 EOF  (device as hex major:minor, then the inode)
                String[] f = line.trim().split("\\s+");
                if (f.length < 6 || !f[1].equals("FLOCK")) continue;
                String[] dev = f[5].split(":");
                if (dev.length != 3 || Long.parseLong(dev[2]) != dir.ino()) continue;
                long major = Long.parseLong(dev[0], 16), minor = Long.parseLong(dev[1], 16);
                if (io.sparkdcp.posix.Linux.makedev(major, minor) == dir.dev()) return "pid " + f[4] + ", host " + host;
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

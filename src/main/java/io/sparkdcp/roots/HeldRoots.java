package io.sparkdcp.roots;

import io.sparkdcp.copy.RootCheck;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.posix.DirectoryIdentity;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.Posix;

/**
 * The driver's hold on the roots for one run: their identities pinned (checking any that {@link Roots}
 * pinned before), and DST locked by hierarchy ({@link DestinationLock}), so one run at a time writes
 * into a DST, anything inside it or anything above it.
 */
public final class HeldRoots implements AutoCloseable, RootHolds.Hold {
    private final Fd destination;
    private final DestinationLock lock;
    private final CopyOptions pinned;

    private HeldRoots(Fd destination, DestinationLock lock, CopyOptions pinned) {
        this.destination = destination;
        this.lock = lock;
        this.pinned = pinned;
    }

    public static HeldRoots take(CopyOptions copy) {
        DirectoryIdentity sourceId;
        try (Fd source = RootCheck.open(copy.sourceRoot(), copy.sourceId(), "source")) {
            sourceId = Posix.identity(source);
        }
        Fd destination = RootCheck.open(copy.destinationRoot(), copy.destinationId(), "destination");
        try {
            DestinationLock lock = DestinationLock.take(destination, copy.destinationRoot());
            return new HeldRoots(destination, lock, copy.withRootIds(sourceId, Posix.identity(destination)));
        } catch (RuntimeException e) {
            destination.close();
            throw e;
        }
    }

    /** The copy's options with both roots pinned. */
    public CopyOptions pinned() { return pinned; }

    @Override
    public void close() {
        lock.close();
        destination.close();
    }
}

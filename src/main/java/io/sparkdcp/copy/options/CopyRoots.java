package io.sparkdcp.copy.options;

import io.sparkdcp.posix.DirectoryIdentity;

import java.io.Serializable;

/**
 * The two trees of a copy, as the driver checked them.
 *
 * @param source        absolute path of the source tree (bytes)
 * @param destination   absolute path of the destination tree (bytes); it exists when the engine runs
 * @param sourceId      what the driver found at source; every task checks it before writing (null: not pinned yet)
 * @param destinationId the same for destination
 * @param file          the one entry copied when the source is not a directory (the roots are then the
 *                      directories holding it); null when the roots are the trees copied
 * @param destinationNew this run made the destination root: every name beneath it is free, so entries are
 *                      created at once; else each name is looked at first (a create that fails because the
 *                      name is taken is a wasted round trip, on Lustre one to a metadata server). Either way
 *                      the other order follows when the first guess was wrong.
 */
public record CopyRoots(byte[] source, byte[] destination, DirectoryIdentity sourceId, DirectoryIdentity destinationId,
                        RootFile file, boolean destinationNew) implements Serializable {
    public CopyRoots {
        if (source.length == 0 || source[0] != '/') throw new IllegalArgumentException("source root must be absolute");
        if (destination.length == 0 || destination[0] != '/') throw new IllegalArgumentException("destination root must be absolute");
    }

    /** Roots whose destination existed before the run. */
    public CopyRoots(byte[] source, byte[] destination, DirectoryIdentity sourceId, DirectoryIdentity destinationId, RootFile file) {
        this(source, destination, sourceId, destinationId, file, false);
    }

    /** Two trees, not pinned yet: the job pins them when it starts. */
    public static CopyRoots of(byte[] source, byte[] destination) {
        return new CopyRoots(source, destination, null, null, null);
    }

    /** The same roots pinned to these identities. */
    public CopyRoots pinned(DirectoryIdentity s, DirectoryIdentity d) {
        return new CopyRoots(source, destination, s, d, file, destinationNew);
    }

    /** The same roots, the destination's made by this run or not. */
    public CopyRoots withDestinationNew(boolean made) {
        return new CopyRoots(source, destination, sourceId, destinationId, file, made);
    }
}

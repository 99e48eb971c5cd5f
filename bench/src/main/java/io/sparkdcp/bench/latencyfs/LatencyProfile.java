package io.sparkdcp.bench.latencyfs;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * Which requests wait how long, and how long the kernel may cache look-ups and attributes.
 *
 * @param latencyNanos        added to each delayed request
 * @param delayed             the kinds of request that wait
 * @param entryTimeoutSeconds how long the kernel trusts a name it looked up (FUSE entry_timeout)
 * @param attrTimeoutSeconds  how long it trusts attributes (FUSE attr_timeout)
 */
public record LatencyProfile(String name, long latencyNanos, Set<MetadataOp> delayed, double entryTimeoutSeconds,
                             double attrTimeoutSeconds) {
    public LatencyProfile {
        if (latencyNanos < 0) throw new IllegalArgumentException("latency must not be negative");
        if (entryTimeoutSeconds < 0 || attrTimeoutSeconds < 0) throw new IllegalArgumentException("cache timeouts must not be negative");
        delayed = Set.copyOf(delayed);
    }

    /**
     * Like a Lustre client: the GET of a project ID is answered from the inode it holds, and the
     * kernel's internal open and release around it cost nothing; every other request is a round
     * trip to the metadata server. Look-ups are cached for 1 s, as under the client's locks.
     */
    public static LatencyProfile lustre(long latencyNanos) {
        Set<MetadataOp> ops = EnumSet.allOf(MetadataOp.class);
        ops.removeAll(EnumSet.of(MetadataOp.IOCTL_GET, MetadataOp.OPEN_INTERNAL, MetadataOp.RELEASE_INTERNAL,
                MetadataOp.GETATTR_REPLY));
        return new LatencyProfile("lustre", latencyNanos, ops, 1.0, 1.0);
    }

    /** Pessimistic: every request waits, the project-ID ioctl's internal open and release included. */
    public static LatencyProfile all(long latencyNanos) {
        Set<MetadataOp> ops = EnumSet.allOf(MetadataOp.class);
        ops.remove(MetadataOp.GETATTR_REPLY);
        return new LatencyProfile("all", latencyNanos, ops, 1.0, 1.0);
    }

    public static LatencyProfile named(String name, long latencyNanos) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "lustre" -> lustre(latencyNanos);
            case "all" -> all(latencyNanos);
            default -> throw new IllegalArgumentException("unknown latency profile '" + name + "' (expected lustre or all)");
        };
    }

    public LatencyProfile withCacheTimeouts(double entrySeconds, double attrSeconds) {
        return new LatencyProfile(name, latencyNanos, delayed, entrySeconds, attrSeconds);
    }

    public long delayOf(MetadataOp op) {
        return delayed.contains(op) ? latencyNanos : 0;
    }
}

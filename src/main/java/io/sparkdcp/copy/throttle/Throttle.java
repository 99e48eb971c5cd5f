package io.sparkdcp.copy.throttle;

import java.io.Serializable;
import java.util.UUID;

/**
 * {@code --max-ops} and {@code --bwlimit}: the whole job's metadata calls and file bytes per second,
 * and how many JVMs run its tasks at once. Each JVM takes an equal share of each rate, and its tasks
 * (and their threads) draw from one pair of buckets ({@link JobLimits}), so tasks that finish early
 * leave their share to the others in the same JVM.
 *
 * @param maxOps  metadata calls per second for the whole job; 0 for no limit
 * @param bwlimit bytes of file data per second for the whole job; 0 for no limit
 * @param job     names the job's buckets in each JVM, so two jobs never share them
 * @param jvms    the JVMs that share the rates (1 on threads and in Spark's local mode)
 */
public record Throttle(long maxOps, long bwlimit, String job, int jvms) implements Serializable {
    public static final Throttle NONE = new Throttle(0, 0, "", 1);

    public Throttle {
        if (maxOps < 0 || bwlimit < 0) throw new IllegalArgumentException("rates must not be negative");
        if (job == null || jvms < 1) throw new IllegalArgumentException("a job name and at least one JVM must be given");
    }

    /** A new job's limits (0: none), its own buckets everywhere. */
    public static Throttle of(long maxOps, long bwlimit) {
        return maxOps == 0 && bwlimit == 0 ? NONE : new Throttle(maxOps, bwlimit, UUID.randomUUID().toString(), 1);
    }

    /** The same rates for a job of their own: buckets no other job shares. */
    public Throttle newJob() {
        return of(maxOps, bwlimit);
    }

    /** True when either rate is limited. */
    public boolean limits() {
        return maxOps > 0 || bwlimit > 0;
    }

    /** The same limits divided among this many JVMs. */
    public Throttle sharedBy(int count) {
        return limits() ? new Throttle(maxOps, bwlimit, job, Math.max(1, count)) : this;
    }

    /** This JVM's metadata calls per second; 0 for no limit. */
    double opsPerJvm() {
        return (double) maxOps / jvms;
    }

    /** This JVM's bytes per second; 0 for no limit. */
    double bytesPerJvm() {
        return (double) bwlimit / jvms;
    }
}

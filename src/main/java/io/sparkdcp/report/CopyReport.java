package io.sparkdcp.report;

import io.sparkdcp.copy.CopyCounts;
import io.sparkdcp.copy.CopyModes;
import io.sparkdcp.copy.StepStats;
import io.sparkdcp.copy.Throttle;

/**
 * The outcome of a copy job: per-entry counts and failures, step timings, and what was listed.
 *
 * @param entriesListed entries the walk found, the root included
 * @param bytesListed   bytes of regular files the walk found
 * @param walkComplete  false when part of the source could not be listed (those errors are failures)
 * @param modes         how files were written and compared
 * @param listedBy      who listed the source: "driver", "executors", or "saved" (a listing read back)
 * @param listingDir    the saved listing read or written, or null
 * @param throttle      the job's --max-ops and --bwlimit
 */
public record CopyReport(String source, String destination, String xattrs, String xattrAccess,
                         boolean projectIds, CopyCounts counts, StepStats steps, long entriesListed,
                         long bytesListed, long wallNanos, boolean walkComplete, CopyModes modes, String listedBy,
                         String listingDir, Throttle throttle) {

    /** 0: everything copied or already identical; 1: some entries failed (the rest was copied). */
    public int exitCode() {
        return counts.failed() > 0 || !walkComplete ? 1 : 0;
    }

    /** Metadata calls per second over the run, as --max-ops counts them. */
    public double metadataCallsPerSecond() {
        return perSecond(steps.metadataCalls());
    }

    /** Bytes of file data copied per second over the run, as --bwlimit counts them. */
    public double bytesPerSecond() {
        return perSecond(counts.bytesCopied());
    }

    private double perSecond(long amount) {
        return wallNanos <= 0 ? 0.0 : amount * 1e9 / wallNanos;
    }
}

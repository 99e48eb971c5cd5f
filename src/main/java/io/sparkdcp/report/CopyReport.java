package io.sparkdcp.report;

import io.sparkdcp.copy.CopyCounts;
import io.sparkdcp.copy.StepStats;

/**
 * The outcome of a copy job: per-entry counts and failures, step timings, and what was listed.
 *
 * @param entriesListed entries the walk found, the root included
 * @param bytesListed   bytes of regular files the walk found
 * @param walkComplete  false when part of the source could not be listed (those errors are failures)
 */
public record CopyReport(String source, String destination, String xattrPolicy, String metadataAccess,
                         boolean projectIds, CopyCounts counts, StepStats steps, long entriesListed,
                         long bytesListed, long wallNanos, boolean walkComplete) {

    /** 0: everything copied or already identical; 1: some entries failed (the rest was copied). */
    public int exitCode() {
        return counts.failed() > 0 || !walkComplete ? 1 : 0;
    }
}

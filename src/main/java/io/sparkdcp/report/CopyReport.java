package io.sparkdcp.report;

import io.sparkdcp.copy.CopyCounts;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.copy.steps.StepStats;

/**
 * The outcome of a copy job: the settings it ran with, what was listed, per-entry counts and
 * failures, and step timings.
 *
 * @param source      the source as shown to the user
 * @param destination the destination as shown to the user
 * @param settings    the engine's options the copy ran with (for several sources, the last pair's):
 *                    what was kept, the write modes, the limits
 * @param listed      what was listed, by whom
 */
public record CopyReport(String source, String destination, CopyOptions settings, ListedSource listed, CopyCounts counts,
                         StepStats steps, long wallNanos) {

    /** 0: everything copied or already identical; 1: some entries failed (the rest was copied). */
    public int exitCode() {
        return counts.failed() > 0 || !listed.complete() ? 1 : 0;
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

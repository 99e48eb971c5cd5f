package io.sparkdcp.job;

import io.sparkdcp.copy.CopyOptions;

import java.io.Serializable;

/**
 * A whole copy job: the engine's options plus how the driver walks and batches. Built from a
 * checked {@code io.sparkdcp.api.CopyRequest}, whose components of the same names these are.
 *
 * @param batchFiles     entries per task at most
 * @param batchBytes     bytes per task at most (a task closes at whichever limit comes first)
 * @param walkThreads    threads listing the source, on the driver or in each task of a distributed walk
 * @param threadsPerTask files (and directories) each task copies at once, each by its own thread
 * @param listing        how the source is listed: walked where, saved or read from a saved listing
 */
public record JobOptions(CopyOptions copy, int batchFiles, long batchBytes, int walkThreads, int threadsPerTask,
                         ListingOptions listing) implements Serializable {

    /** The source walked on the driver or the executors as the runner suggests, not saved. */
    public JobOptions(CopyOptions copy, int batchFiles, long batchBytes, int walkThreads, int threadsPerTask) {
        this(copy, batchFiles, batchBytes, walkThreads, threadsPerTask, ListingOptions.WALK);
    }

    /** One file in flight per task. */
    public JobOptions(CopyOptions copy, int batchFiles, long batchBytes, int walkThreads) {
        this(copy, batchFiles, batchBytes, walkThreads, 1);
    }

    public JobOptions withThreadsPerTask(int n) {
        return new JobOptions(copy, batchFiles, batchBytes, walkThreads, n, listing);
    }

    public JobOptions withCopy(CopyOptions c) {
        return new JobOptions(c, batchFiles, batchBytes, walkThreads, threadsPerTask, listing);
    }

    public JobOptions withListing(ListingOptions how) {
        return new JobOptions(copy, batchFiles, batchBytes, walkThreads, threadsPerTask, how);
    }
}

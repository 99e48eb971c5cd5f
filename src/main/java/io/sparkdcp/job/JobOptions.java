package io.sparkdcp.job;

import io.sparkdcp.copy.CopyOptions;

import java.io.Serializable;

/**
 * A whole copy job: the engine's options plus how the driver walks and batches.
 *
 * @param batchFiles  entries per task at most
 * @param batchBytes  bytes per task at most (a task closes at whichever limit comes first)
 * @param walkThreads threads listing the source on the driver
 * @param filesInFlight files each task copies at once (threads per task)
 * @param listing     how the source is listed: walked where, saved or reused
 */
public record JobOptions(CopyOptions copy, int batchFiles, long batchBytes, int walkThreads, int filesInFlight,
                         ListingOptions listing) implements Serializable {
    public JobOptions {
        if (batchFiles < 1) throw new IllegalArgumentException("--batch-files must be at least 1");
        if (batchBytes < 1) throw new IllegalArgumentException("--batch-bytes must be at least 1 byte");
        if (walkThreads < 1) throw new IllegalArgumentException("--walk-threads must be at least 1");
        if (filesInFlight < 1) throw new IllegalArgumentException("--threads-per-task must be at least 1");
        if (listing == null) throw new IllegalArgumentException("listing options are needed");
    }

    /** The source walked on the driver or the executors as the runner suggests, not saved. */
    public JobOptions(CopyOptions copy, int batchFiles, long batchBytes, int walkThreads, int filesInFlight) {
        this(copy, batchFiles, batchBytes, walkThreads, filesInFlight, ListingOptions.WALK);
    }

    /** One file in flight per task. */
    public JobOptions(CopyOptions copy, int batchFiles, long batchBytes, int walkThreads) {
        this(copy, batchFiles, batchBytes, walkThreads, 1);
    }

    public JobOptions withFilesInFlight(int n) {
        return new JobOptions(copy, batchFiles, batchBytes, walkThreads, n, listing);
    }

    public JobOptions withCopy(CopyOptions c) {
        return new JobOptions(c, batchFiles, batchBytes, walkThreads, filesInFlight, listing);
    }

    public JobOptions withListing(ListingOptions how) {
        return new JobOptions(copy, batchFiles, batchBytes, walkThreads, filesInFlight, how);
    }

    public static final int DEFAULT_BATCH_FILES = 2_000;
    public static final long DEFAULT_BATCH_BYTES = 1L << 30;
    public static final long DEFAULT_CHUNK_SIZE = 256L << 20;

    /**
     * Twice the CPUs, from 4 to 32, or as many as the copy keeps calls in flight (up to 64): on a
     * file system where each call is a round trip the walk needs the same concurrency as the copy.
     */
    public static int defaultWalkThreads(int callsInFlight) {
        int cpus = java.lang.Runtime.getRuntime().availableProcessors();
        return Math.max(Math.min(32, Math.max(4, 2 * cpus)), Math.min(64, callsInFlight));
    }
}

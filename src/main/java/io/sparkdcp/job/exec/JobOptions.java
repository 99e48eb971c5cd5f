package io.sparkdcp.job.exec;

import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.job.listing.ListingOptions;

import java.io.Serializable;

/**
 * A whole copy job: the engine's options, how the driver batches, and how it lists the source;
 * the last two are the request's groups as the user gave them.
 *
 * @param copy     what each task needs (its chunk size is the batching's)
 * @param batching entries and bytes per task, threads per task and per walk
 * @param listing  how the source is listed: walked where, filtered, saved or read from a saved listing
 */
public record JobOptions(CopyOptions copy, Batching batching, ListingOptions listing) implements Serializable {

    public JobOptions {
        if (copy == null || batching == null || listing == null)
            throw new IllegalArgumentException("copy, batching and listing must be given");
    }

    public int batchFiles() { return batching.batchFiles(); }

    public long batchBytes() { return batching.batchBytes(); }

    public int walkThreads() { return batching.walkThreads(); }

    public int threadsPerTask() { return batching.threadsPerTask(); }

    public JobOptions withCopy(CopyOptions c) {
        return new JobOptions(c, batching, listing);
    }

    public JobOptions withListing(ListingOptions how) {
        return new JobOptions(copy, batching, how);
    }
}

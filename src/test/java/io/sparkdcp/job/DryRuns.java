package io.sparkdcp.job;

import io.sparkdcp.job.exec.JobOptions;
import io.sparkdcp.job.exec.LocalPhaseRunner;
import io.sparkdcp.job.listing.ListingOptions;
import io.sparkdcp.job.listing.WalkMode;
import io.sparkdcp.spark.SparkPhaseRunner;

/** A dry run as the API runs it: on this JVM's threads, or with both listings kept on Spark's executors. */
final class DryRuns {
    private DryRuns() {}

    static SyncPreview onThreads(JobOptions options, boolean delete, boolean destinationExists) {
        return new PreviewJob(options, new LocalPhaseRunner(3), line -> {}).run(delete, destinationExists);
    }

    /** With --walk distributed: the listings stay on the executors even in local mode. */
    static SyncPreview onExecutors(JobOptions options, SparkPhaseRunner runner, boolean delete, boolean destinationExists) {
        ListingOptions l = options.listing();
        JobOptions distributed = options.withListing(new ListingOptions(WalkMode.DISTRIBUTED, l.listing(), l.saveListing(), l.filter(),
                l.deleteExcluded()));
        return new PreviewJob(distributed, runner, line -> {}).run(delete, destinationExists);
    }
}

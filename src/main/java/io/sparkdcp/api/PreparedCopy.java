package io.sparkdcp.api;

import io.sparkdcp.copy.CopyOptions;
import io.sparkdcp.job.CopyJob;
import io.sparkdcp.job.JobOptions;
import io.sparkdcp.job.Roots;
import io.sparkdcp.job.SourceListing;
import io.sparkdcp.job.SyncJob;
import io.sparkdcp.job.UsageException;
import io.sparkdcp.progress.Work;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.progress.ProgressPrinter;
import io.sparkdcp.spark.SparkPhaseRunner;
import org.apache.spark.api.java.JavaSparkContext;

import java.util.function.BiFunction;
import java.util.function.Consumer;

/**
 * A copy whose roots and options have been checked: nothing is written until {@link #run}. The CLI
 * checks first so that a usage error comes before Spark starts.
 */
public final class PreparedCopy {
    private final Roots roots;
    private final JobOptions options;
    private final CopyRequest request;

    private PreparedCopy(Roots roots, JobOptions options, CopyRequest request) {
        this.roots = roots;
        this.options = options;
        this.request = request;
    }

    static PreparedCopy check(String source, String destination, CopyRequest request) {
        Roots roots = Roots.check(source, destination);
        CopyOptions copy = new CopyOptions(roots.sourceBytes(), roots.destinationBytes(), request.xattrs(),
                request.access(), request.projectIds(), request.chunkSize(), request.modes())
                .withRootIds(roots.sourceId(), roots.destinationId());
        JobOptions options = new JobOptions(copy, request.batchFiles(), request.batchBytes(), request.walkThreadsOrDefault(),
                request.threadsPerTask(), request.listing());
        SourceListing.check(options);
        return new PreparedCopy(roots, options, request);
    }

    /** Runs the copy on the caller's context (left running). */
    public CopyResult run(JavaSparkContext sc) {
        return run(sc, (runner, planned) -> new CopyJob(options, runner, request.messages(), planned).run());
    }

    /**
     * Runs it as a sync (the request's modes must say sync): data already right is kept and only
     * differing metadata fixed; with {@code delete}, what SRC lacks is removed, unless SRC could not be listed whole.
     */
    public CopyResult runSync(JavaSparkContext sc, boolean delete) {
        if (delete && options.listing().reuse() != null)
            throw new UsageException("sync --delete walks SRC afresh: a saved listing may lack what SRC gained since, "
                    + "and DST must not lose it; drop --listing or --delete");
        return run(sc, (runner, planned) -> new SyncJob(options, delete, runner, request.messages(), planned).run());
    }

    /** The checked job options: what a dry run judges from. */
    public JobOptions options() { return options; }

    public boolean destinationExists() { return roots.destinationExists(); }

    private CopyResult run(JavaSparkContext sc, BiFunction<SparkPhaseRunner, Consumer<Work>, CopyReport> job) {
        try (SparkPhaseRunner runner = new SparkPhaseRunner(sc)) {
            roots.createDestination();
            if (request.progressInterval().isZero()) return new CopyResult(job.apply(runner, total -> {}));
            try (ProgressPrinter progress = new ProgressPrinter(request.progressInterval(), runner::done, request.messages())) {
                return new CopyResult(job.apply(runner, progress::planned));
            }
        }
    }
}

package io.sparkdcp.api;

import io.sparkdcp.copy.CopyOptions;
import io.sparkdcp.job.CopyJob;
import io.sparkdcp.job.JobOptions;
import io.sparkdcp.job.ListingOptions;
import io.sparkdcp.job.PhaseRunner;
import io.sparkdcp.job.Roots;
import io.sparkdcp.job.SourceListing;
import io.sparkdcp.job.SyncJob;
import io.sparkdcp.job.SyncPreview;
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

    /** The request's values, under the same names, as the engine's options: nothing is checked or defaulted here again. */
    static PreparedCopy check(String source, String destination, CopyRequest request) {
        Roots roots = Roots.check(source, destination);
        CopyOptions copy = new CopyOptions(roots.sourceBytes(), roots.destinationBytes(), request.xattrs(),
                request.xattrAccess(), request.projectIds(), request.chunkSize(), request.modes());
        JobOptions options = new JobOptions(copy, request.batchFiles(), request.batchBytes(), request.walkThreads(),
                request.threadsPerTask(), new ListingOptions(request.walk(), request.listing(), request.saveListing()));
        SourceListing.check(options);
        return new PreparedCopy(roots, options, request);
    }

    /** Runs the copy on the caller's context (left running). */
    public CopyResult run(JavaSparkContext sc) {
        try (SparkPhaseRunner runner = new SparkPhaseRunner(sc)) {
            return runOn(runner);
        }
    }

    /** Runs the copy on the given runner: Spark's, or threads in this JVM (the bench times the engine without Spark). */
    public CopyResult runOn(PhaseRunner runner) {
        return run(runner, (r, planned) -> new CopyJob(options, r, request.messages(), planned).run());
    }

    /**
     * Runs it as a sync (the request's modes must say sync): data already right is kept and only
     * differing metadata fixed; with {@code delete}, what SRC lacks is removed, unless SRC could not be listed whole.
     */
    public CopyResult runSync(JavaSparkContext sc, boolean delete) {
        checkSyncDelete(delete);
        try (SparkPhaseRunner runner = new SparkPhaseRunner(sc)) {
            return run(runner, (r, planned) -> new SyncJob(options, delete, r, request.messages(), planned).run());
        }
    }

    /** What a sync would do, judged from the two listings, without Spark and without writing anything (DST is not created). */
    public DryRun dryRun(boolean delete) {
        checkSyncDelete(delete);
        return new DryRun(SyncPreview.of(options, delete, roots.destinationExists()));
    }

    private void checkSyncDelete(boolean delete) {
        if (delete && options.listing().listing() != null)
            throw new UsageException("sync --delete walks SRC afresh: a saved listing may lack what SRC gained since, "
                    + "and DST must not lose it; drop --listing or --delete");
    }

    private CopyResult run(PhaseRunner runner, BiFunction<PhaseRunner, Consumer<Work>, CopyReport> job) {
        roots.createDestination();
        if (request.progressInterval().isZero()) return new CopyResult(job.apply(runner, total -> {}));
        try (ProgressPrinter progress = new ProgressPrinter(request.progressInterval(), runner::done, request.messages())) {
            return new CopyResult(job.apply(runner, progress::planned));
        }
    }
}

package io.sparkdcp.api;

import io.sparkdcp.copy.CopyOptions;
import io.sparkdcp.job.CopyJob;
import io.sparkdcp.job.JobOptions;
import io.sparkdcp.job.LocalPhaseRunner;
import io.sparkdcp.job.PhaseRunner;
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
                request.access(), request.projectIds(), request.chunkSize(), request.modes());
        JobOptions options = new JobOptions(copy, request.batchFiles(), request.batchBytes(), request.walkThreadsOrDefault(),
                request.threadsPerTask(), request.listing());
        SourceListing.check(options);
        return new PreparedCopy(roots, options, request);
    }

    /** Runs the copy on the caller's context (left running). */
    public CopyResult run(JavaSparkContext sc) {
        try (SparkPhaseRunner runner = new SparkPhaseRunner(sc)) {
            return run(runner, this::copyJob);
        }
    }

    /**
     * Runs the copy on threads in this JVM, without Spark: the same phases, steps and report as
     * {@link #run(JavaSparkContext)} on {@code local[*]}, without Spark's start-up.
     */
    public CopyResult runInProcess() {
        return run(inProcessRunner(), this::copyJob);
    }

    /**
     * Runs it as a sync (the request's modes must say sync): data already right is kept and only
     * differing metadata fixed; with {@code delete}, what SRC lacks is removed, unless SRC could not be listed whole.
     */
    public CopyResult runSync(JavaSparkContext sc, boolean delete) {
        checkSync(delete);
        try (SparkPhaseRunner runner = new SparkPhaseRunner(sc)) {
            return run(runner, syncJob(delete));
        }
    }

    /** {@link #runSync(JavaSparkContext, boolean)} on threads in this JVM, as {@link #runInProcess()}. */
    public CopyResult runSyncInProcess(boolean delete) {
        checkSync(delete);
        return run(inProcessRunner(), syncJob(delete));
    }

    /** The checked job options: what a dry run judges from. */
    public JobOptions options() { return options; }

    public boolean destinationExists() { return roots.destinationExists(); }

    private void checkSync(boolean delete) {
        if (delete && options.listing().reuse() != null)
            throw new UsageException("sync --delete walks SRC afresh: a saved listing may lack what SRC gained since, "
                    + "and DST must not lose it; drop --listing or --delete");
    }

    private CopyReport copyJob(PhaseRunner runner, Consumer<Work> planned) {
        return new CopyJob(options, runner, request.messages(), planned).run();
    }

    private BiFunction<PhaseRunner, Consumer<Work>, CopyReport> syncJob(boolean delete) {
        return (runner, planned) -> new SyncJob(options, delete, runner, request.messages(), planned).run();
    }

    /** As many tasks at once as Spark's local[*] runs: one per CPU. */
    private static PhaseRunner inProcessRunner() {
        return new LocalPhaseRunner(Runtime.getRuntime().availableProcessors());
    }

    private CopyResult run(PhaseRunner runner, BiFunction<PhaseRunner, Consumer<Work>, CopyReport> job) {
        roots.createDestination();
        if (request.progressInterval().isZero()) return new CopyResult(job.apply(runner, total -> {}));
        try (ProgressPrinter progress = new ProgressPrinter(request.progressInterval(), runner::done, request.messages())) {
            return new CopyResult(job.apply(runner, progress::planned));
        }
    }
}

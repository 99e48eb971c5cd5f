package io.sparkdcp.api;

import io.sparkdcp.copy.CopyOptions;
import io.sparkdcp.job.CopyJob;
import io.sparkdcp.job.JobOptions;
import io.sparkdcp.job.ListingOptions;
import io.sparkdcp.job.LocalPhaseRunner;
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

import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
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
                request.xattrAccess(), request.projectIds(), request.chunkSize(), request.modes())
                .withRootIds(roots.sourceId(), roots.destinationId());
        JobOptions options = new JobOptions(copy, request.batchFiles(), request.batchBytes(), request.walkThreads(),
                request.threadsPerTask(), new ListingOptions(request.walk(), request.listing(), request.saveListing(),
                        request.filter(), request.deleteExcluded()));
        SourceListing.check(options);
        return new PreparedCopy(roots, options, request);
    }

    /** Runs the copy on the caller's context (left running). */
    public CopyResult run(JavaSparkContext sc) {
        return run(sc, this::copyJob);
    }

    /**
     * Runs the copy on threads in this JVM, without Spark: the same phases, steps and report as
     * {@link #run(JavaSparkContext)} on {@code local[*]}, without Spark's start-up.
     */
    public CopyResult runInProcess() {
        return runOn(inProcessRunner());
    }

    /** Runs the copy on the given runner (the bench times the engine on threads of its own count). */
    public CopyResult runOn(PhaseRunner runner) {
        return run(runner, this::copyJob);
    }

    /**
     * Runs it as a sync (the request's modes must say sync): data already right is kept and only
     * differing metadata fixed; with {@code delete}, what SRC lacks is removed, unless SRC could not be listed whole.
     */
    public CopyResult runSync(JavaSparkContext sc, boolean delete) {
        checkSyncDelete(delete);
        return run(sc, syncJob(delete));
    }

    /** {@link #runSync(JavaSparkContext, boolean)} on threads in this JVM, as {@link #runInProcess()}. */
    public CopyResult runSyncInProcess(boolean delete) {
        checkSyncDelete(delete);
        return run(inProcessRunner(), syncJob(delete));
    }

    /**
     * What this copy or sync (by the request's modes) would do, judged from the two listings, without Spark and
     * without writing anything (DST is not created); {@code delete} for sync --delete.
     */
    public DryRun dryRun(boolean delete) {
        checkSyncDelete(delete);
        return new DryRun(SyncPreview.of(options, delete, roots.destinationExists()));
    }

    private void checkSyncDelete(boolean delete) {
        if (delete && options.listing().listing() != null)
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

    /**
     * A driver that runs out of memory stops the copy: its jobs (tagged) are cancelled, since a
     * task-result thread that died of it leaves its job waiting for ever, and the call throws
     * {@link DriverOutOfMemoryException}.
     */
    private CopyResult run(JavaSparkContext sc, BiFunction<PhaseRunner, Consumer<Work>, CopyReport> job) {
        String tag = "spark-dcp-" + UUID.randomUUID();
        AtomicReference<OutOfMemoryError> outOfMemory = new AtomicReference<>();
        sc.addJobTag(tag);
        try (OutOfMemoryWatch.Registration watch = OutOfMemoryWatch.watch(e -> {
                 if (outOfMemory.compareAndSet(null, e)) sc.cancelJobsWithTag(tag);
             });
             SparkPhaseRunner runner = new SparkPhaseRunner(sc)) {
            CopyResult result;
            try {
                result = run(runner, job);
            } catch (Exception | OutOfMemoryError e) { // Exception: Spark throws its checked SparkException undeclared
                OutOfMemoryError driver = outOfMemory.get() != null ? outOfMemory.get() : onDriver(OutOfMemoryWatch.find(e), sc);
                if (driver != null) throw new DriverOutOfMemoryException(driver);
                Throwable tooBig = DriverOutOfMemoryException.findResultsTooBig(e);
                if (tooBig != null) throw DriverOutOfMemoryException.resultsTooBig(tooBig);
                throw e;
            }
            // Whatever thread it struck, the result cannot be trusted whole.
            if (outOfMemory.get() != null) throw new DriverOutOfMemoryException(outOfMemory.get());
            runner.retriedAttempts().ifPresent(request.messages());
            return result;
        } finally {
            sc.removeJobTag(tag);
        }
    }

    /**
     * The error if the driver threw it; null if none, or if an executor of a cluster threw it (a
     * task that failed spark.task.maxFailures times, its error sent back with Executor frames).
     * Local executors share the driver's heap.
     */
    private static OutOfMemoryError onDriver(OutOfMemoryError e, JavaSparkContext sc) {
        if (e == null || sc.isLocal()) return e;
        for (StackTraceElement frame : e.getStackTrace()) {
            if (frame.getClassName().startsWith("org.apache.spark.executor.")) return null;
        }
        return e;
    }
}

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
import io.sparkdcp.spark.ExecutorPlanCopy;
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
        // Compare reads bytes with contents(true) too; a copy has no use for it.
        if (request.modes().compareContents() && !request.modes().sync())
            throw new IllegalArgumentException("--contents compares the data of a sync; a copy replaces what differs");
        Roots roots = Roots.check(source, destination);
        CopyOptions copy = new CopyOptions(roots.sourceBytes(), roots.destinationBytes(), request.xattrs(),
                request.xattrAccess(), request.projectIds(), request.chunkSize(), request.modes())
                .withInode(request.inode())
                .withRootIds(roots.sourceId(), roots.destinationId());
        JobOptions options = new JobOptions(copy, request.batchFiles(), request.batchBytes(), request.walkThreads(),
                request.threadsPerTask(), new ListingOptions(request.walk(), request.listing(), request.saveListing()));
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

    private CopyReport copyJob(PhaseRunner runner, Consumer<Work> planned) {
        if (ExecutorPlanCopy.applies(options, runner))
            return new ExecutorPlanCopy(options, (SparkPhaseRunner) runner, request.messages(), planned).run();
        return new CopyJob(options, runner, request.messages(), planned).run();
    }

    private BiFunction<PhaseRunner, Consumer<Work>, CopyReport> syncJob(boolean delete) {
        return (runner, planned) -> ExecutorPlanCopy.applies(options, runner)
                ? new ExecutorPlanCopy(options, delete, (SparkPhaseRunner) runner, request.messages(), planned,
                        ExecutorPlanCopy.TaskFault.NONE, Long.MAX_VALUE).run()
                : new SyncJob(options, delete, runner, request.messages(), planned).run();
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

    /** On Spark, guarded against the driver running out of memory ({@link DriverMemoryGuard}). */
    private CopyResult run(JavaSparkContext sc, BiFunction<PhaseRunner, Consumer<Work>, CopyReport> job) {
        return DriverMemoryGuard.run(sc, runner -> {
            CopyResult result = run(runner, job);
            runner.retriedAttempts().ifPresent(request.messages());
            return result;
        });
    }
}

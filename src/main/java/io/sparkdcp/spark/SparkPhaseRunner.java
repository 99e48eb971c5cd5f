package io.sparkdcp.spark;

import io.sparkdcp.copy.BatchResult;
import io.sparkdcp.copy.CopyCounts;
import io.sparkdcp.copy.CopyEngine;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.copy.steps.StepStats;
import io.sparkdcp.itemlog.TaskItemLog;
import io.sparkdcp.job.exec.JobOptions;
import io.sparkdcp.job.exec.Listed;
import io.sparkdcp.job.exec.PhaseRunner;
import io.sparkdcp.job.exec.SourceListing;
import io.sparkdcp.job.exec.TaskFunction;
import io.sparkdcp.job.exec.TaskWork;
import io.sparkdcp.progress.Work;
import io.sparkdcp.report.Counted;
import io.sparkdcp.roots.UsageException;
import io.sparkdcp.walk.DirectoryBlock;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Runs each phase as one Spark job with one partition per task. The tasks are the job's result
 * stage (no shuffle), so Spark takes each partition's result and accumulator update from exactly
 * one successful attempt, however many attempts were retried.
 */
public final class SparkPhaseRunner implements PhaseRunner, AutoCloseable {
    public static final String ACCUMULATOR_NAME = "spark-dcp steps";
    public static final String PROGRESS_ACCUMULATOR_NAME = "spark-dcp progress";
    /** The job property naming the phase whose results the driver counts: only its tasks commit their item log. */
    static final String COUNTED_PHASE = "spark-dcp.counted-phase";
    /** How long {@link #settled} waits for the listener's progress at most. */
    private static final Duration SETTLING = Duration.ofSeconds(5);

    private final JavaSparkContext sc;
    private final StepAccumulator steps = new StepAccumulator();
    private final ProgressAccumulator progress = new ProgressAccumulator();
    private final HeartbeatProgress heartbeats;
    private final TaskFailures failures = new TaskFailures();
    /** Numbers the phases, which name the item log's parts. */
    private final AtomicInteger phases = new AtomicInteger();
    /** The phase of each stage {@link #onPartitions} made, by its RDD's id, for {@link #counts}. */
    private final Map<Integer, Integer> phaseOfStage = new HashMap<>();

    public SparkPhaseRunner(JavaSparkContext sc) {
        // Two attempts of one batch at once could race each other's create-and-replace steps.
        if (sc.getConf().getBoolean("spark.speculation", false))
            throw new UsageException("spark.speculation is on: it would run two copies of a batch at once; set spark.speculation=false");
        this.sc = sc;
        sc.sc().register(steps, ACCUMULATOR_NAME);
        sc.sc().register(progress, PROGRESS_ACCUMULATOR_NAME);
        heartbeats = new HeartbeatProgress(progress.id());
        sc.sc().addSparkListener(heartbeats);
        sc.sc().addSparkListener(failures);
    }

    @Override
    public <T> List<BatchResult> run(String phase, List<T> tasks, CopyOptions options, TaskWork<T> work) {
        if (tasks.isEmpty()) return List.of();
        StepAccumulator accumulator = steps;
        ProgressAccumulator handled = progress;
        int phaseNumber = phases.incrementAndGet();
        CopyOptions shared = sharedByExecutors(options);
        sc.setJobDescription("spark-dcp: " + phase);
        try {
            JavaRDD<BatchResult> stage = sc.parallelize(tasks, tasks.size()).mapPartitions(partition -> {
                List<BatchResult> results = new ArrayList<>();
                try (TaskItemLog items = openItemLog(shared, phaseNumber);
                     CopyEngine engine = new CopyEngine(forThisAttempt(shared), accumulator, handled, items.log())) {
                    while (partition.hasNext()) results.add(work.run(engine, partition.next()));
                    commitIfCounted(items, phaseNumber);
                }
                return results.iterator();
            });
            return counted(phaseNumber, stage::collect);
        } finally {
            sc.setJobDescription(null);
        }
    }

    @Override
    public <T, R> List<R> map(String phase, List<T> tasks, TaskFunction<T, R> function) {
        if (tasks.isEmpty()) return List.of();
        sc.setJobDescription("spark-dcp: " + phase);
        try {
            return sc.parallelize(tasks, tasks.size()).map(function::apply).collect();
        } finally {
            sc.setJobDescription(null);
        }
    }

    /** On the executors when a distributed walk's listing may stay there ({@link SourceListing#staysDistributed}). */
    @Override
    public Listed list(JobOptions options, Consumer<String> log, Consumer<DirectoryBlock> onListed, long walkEntriesPerTask) {
        return SourceListing.staysDistributed(options, spansNodes()) ? new RddListed(this, options, log, walkEntriesPerTask)
                : PhaseRunner.super.list(options, log, onListed, walkEntriesPerTask);
    }

    /** The context, for a job that builds its own stages (the plan that stays on the executors). */
    JavaSparkContext context() { return sc; }

    /**
     * The engine's work with each partition of {@code tasks} as one task's share, recording into this
     * runner's steps and progress: one result per non-empty partition, computed when an action runs.
     * Run it in a result stage (no shuffle after it), so each partition's updates count once.
     */
    <T> JavaRDD<BatchResult> onPartitions(JavaRDD<T> tasks, CopyOptions options, TaskWork<List<T>> work) {
        StepAccumulator accumulator = steps;
        ProgressAccumulator handled = progress;
        int phaseNumber = phases.incrementAndGet();
        CopyOptions shared = sharedByExecutors(options);
        JavaRDD<BatchResult> stage = tasks.mapPartitions(partition -> {
            List<T> share = new ArrayList<>();
            partition.forEachRemaining(share::add);
            if (share.isEmpty()) return java.util.Collections.emptyIterator();
            try (TaskItemLog items = openItemLog(shared, phaseNumber);
                 CopyEngine engine = new CopyEngine(forThisAttempt(shared), accumulator, handled, items.log())) {
                BatchResult result = work.run(engine, share);
                commitIfCounted(items, phaseNumber);
                return List.of(result).iterator();
            }
        });
        synchronized (phaseOfStage) {
            phaseOfStage.put(stage.id(), phaseNumber);
        }
        return stage;
    }

    /**
     * Runs a stage {@link #onPartitions} made, as the one action whose counts the driver keeps: its
     * tasks commit their item log, which a later job that computes the stage again (a lost cached
     * partition) does not.
     */
    List<CopyCounts> counts(JavaRDD<BatchResult> stage) {
        Integer phaseNumber;
        synchronized (phaseOfStage) {
            phaseNumber = phaseOfStage.get(stage.id());
        }
        if (phaseNumber == null) throw new IllegalArgumentException("not a stage of this runner: " + stage);
        return counted(phaseNumber, () -> stage.map(BatchResult::counts).collect());
    }

    private <R> R counted(int phaseNumber, java.util.function.Supplier<R> action) {
        sc.setLocalProperty(COUNTED_PHASE, Integer.toString(phaseNumber));
        try {
            return action.get();
        } finally {
            sc.setLocalProperty(COUNTED_PHASE, null);
        }
    }

    /** This task attempt's part of the item log, named by the phase and the partition. */
    private static TaskItemLog openItemLog(CopyOptions options, int phaseNumber) {
        TaskContext task = TaskContext.get();
        return TaskItemLog.open(options, phaseNumber, task.partitionId(), task.taskAttemptId(), retried());
    }

    /** Whether this task attempt follows another of the same task, which may have made some of its names at DST. */
    private static boolean retried() {
        TaskContext task = TaskContext.get();
        return task.attemptNumber() > 0 || task.stageAttemptNumber() > 0;
    }

    /**
     * A retry looks at each name before making it even under a DST this run made: a lost attempt may have
     * named some of its files whole, which the retry then skips without opening them, instead of copying them again.
     */
    private static CopyOptions forThisAttempt(CopyOptions options) {
        return options.destinationNew() && retried() ? options.withRoots(options.roots().withDestinationNew(false)) : options;
    }

    /** Only the job that counts the phase's results commits its lines; a recomputation elsewhere drops them. */
    private static void commitIfCounted(TaskItemLog items, int phaseNumber) {
        if (Integer.toString(phaseNumber).equals(TaskContext.get().getLocalProperty(COUNTED_PHASE))) items.commit();
    }

    /**
     * The options with --max-ops and --bwlimit divided equally among the executors as a stage starts:
     * those registered (the driver is listed too, but runs no task), or as many as were asked for
     * when more, so that executors still starting do not each take the whole rate. One in local mode.
     */
    private CopyOptions sharedByExecutors(CopyOptions options) {
        if (!options.throttle().limits()) return options;
        int executors = sc.isLocal() ? 1 : Math.max(sc.statusTracker().getExecutorInfos().length - 1,
                sc.getConf().getInt("spark.executor.instances", 0));
        return options.withThrottle(options.throttle().sharedBy(executors));
    }

    @Override
    public int parallelism() { return sc.defaultParallelism(); }

    @Override
    public boolean spansNodes() { return !sc.isLocal(); }

    @Override
    public String where() { return "on the executors"; }

    @Override
    public StepStats steps() {
        return steps.value().copy();
    }

    @Override
    public Work done() {
        return heartbeats.done();
    }

    /**
     * The driver's own accumulator holds every successful task's work once its job returns; the listener's
     * sum catches up with it shortly after. Waits at most {@link #SETTLING}: a listener that lags longer
     * leaves the last line short, never the copy.
     */
    @Override
    public void settled() {
        long deadline = System.nanoTime() + SETTLING.toNanos();
        while (!heartbeats.done().equals(progress.value()) && System.nanoTime() < deadline) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * The task attempts that failed and were retried, for the report: a copy that succeeded
     * despite them is complete, but executors that ran out of memory want more of it next time.
     * Empty when none failed.
     */
    public Optional<String> retriedAttempts() {
        TaskFailures.Summary s = failures.summary();
        if (s.failed() == 0) return Optional.empty();
        String oom = s.outOfMemory() == 0 ? ""
                : String.format(", %,d of them out of memory on an executor (give executors more with spark.executor.memory)",
                s.outOfMemory());
        return Optional.of(String.format("%s failed and %s retried by Spark%s; the first: %s",
                Counted.of(s.failed(), "task attempt"), s.failed() == 1 ? "was" : "were", oom, s.example()));
    }

    /** Stops listening; the context is the caller's and stays up. */
    @Override
    public void close() {
        sc.sc().removeSparkListener(heartbeats);
        sc.sc().removeSparkListener(failures);
    }
}

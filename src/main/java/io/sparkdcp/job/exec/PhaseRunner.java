package io.sparkdcp.job.exec;

import io.sparkdcp.copy.BatchResult;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.copy.steps.StepStats;
import io.sparkdcp.progress.Work;

import io.sparkdcp.walk.DirectoryBlock;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Runs one phase's tasks somewhere — threads in this JVM, or Spark executors — and returns each
 * task's result exactly once, however often a task was retried. Distribution only: the work itself
 * is the engine's.
 */
public interface PhaseRunner {
    <T> List<BatchResult> run(String phase, List<T> tasks, CopyOptions options, TaskWork<T> work);

    /**
     * The source's listing for {@code options}, where this runner keeps it: by default on the driver,
     * with every phase run through {@link #run}.
     *
     * @param onListed told each directory as it is listed, before the copy sees it (tests hold the walk there)
     * @param walkEntriesPerTask a walk task's budget of entries per round besides its time (tests force many rounds)
     */
    default Listed list(JobOptions options, Consumer<String> log, Consumer<DirectoryBlock> onListed, long walkEntriesPerTask) {
        return new DriverListed(this, options, log, onListed, false);
    }

    /** A phase whose tasks are handed over while it runs; by default they run through {@link #run} once all are in. */
    default <T> TaskFeed<T> start(String phase, CopyOptions options, TaskWork<T> work) {
        List<T> tasks = new ArrayList<>();
        return new TaskFeed<>() {
            @Override
            public void submit(T task) { tasks.add(task); }

            @Override
            public List<BatchResult> finish() { return run(phase, tasks, options, work); }

            @Override
            public void close() {}
        };
    }

    /**
     * A running phase fed one task at a time: {@link #submit} tasks, then {@link #finish} for each task's
     * result; closing it stops what still runs. (A recipe feeds {@link Listed.SpreadFeed}s instead.)
     */
    interface TaskFeed<T> extends AutoCloseable {
        void submit(T task);

        /** Every task's result, in the order they were submitted, once all are done; the first failure fails the phase. */
        List<BatchResult> finish();

        @Override
        void close();
    }

    /** Runs a function over tasks, results in task order: work that is not the copy engine's (the distributed walk). */
    <T, R> List<R> map(String phase, List<T> tasks, TaskFunction<T, R> function);

    /** Tasks that run at once. */
    int parallelism();

    /** Where the tasks run, as a log line says it: "on the executors", "in parallel tasks on 4 threads". */
    String where();

    /** True when tasks may run on other nodes than the driver (a cluster, not local mode). */
    boolean spansNodes();

    /** Step counts and times of every task that has finished so far. */
    StepStats steps();

    /** Entries and bytes handled so far, including what running tasks have reported (for progress). */
    Work done();

    /**
     * Returns once {@link #done} holds the work of every task that has ended, for the last progress line
     * (Spark's listeners hear of a task's end shortly after its job returns).
     */
    default void settled() {}
}

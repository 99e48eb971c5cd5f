package io.sparkdcp.job;

import io.sparkdcp.copy.BatchResult;
import io.sparkdcp.copy.CopyOptions;
import io.sparkdcp.copy.StepStats;
import io.sparkdcp.progress.Work;

import java.util.List;

/**
 * Runs one phase's tasks somewhere — threads in this JVM, or Spark executors — and returns each
 * task's result exactly once, however often a task was retried. Distribution only: the work itself
 * is the engine's.
 */
public interface PhaseRunner {
    <T> List<BatchResult> run(String phase, List<T> tasks, CopyOptions options, TaskWork<T> work);

    /** Runs a function over tasks, results in task order: work that is not the copy engine's (the distributed walk). */
    <T, R> List<R> map(String phase, List<T> tasks, TaskFunction<T, R> function);

    /** Tasks that run at once. */
    int parallelism();

    /** Where the tasks run, as a log line says it: "on the executors", "in parallel tasks on 4 threads". */
    String where();

    /** True when tasks may run on other nodes than the driver (a cluster, not local mode). */
    boolean spansNodes();

    /** True for Spark's runner: only then may the Spark-only plans (whose classes need Spark's) be loaded. */
    default boolean onSpark() { return false; }

    /** Step counts and times of every task that has finished so far. */
    StepStats steps();

    /** Entries and bytes handled so far, including what running tasks have reported (for progress). */
    Work done();
}

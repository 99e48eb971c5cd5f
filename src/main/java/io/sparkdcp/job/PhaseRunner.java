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

    /** Step counts and times of every task that has finished so far. */
    StepStats steps();

    /** Entries and bytes handled so far, including what running tasks have reported (for progress). */
    Work done();
}

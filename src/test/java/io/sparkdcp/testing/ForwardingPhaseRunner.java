package io.sparkdcp.testing;

import io.sparkdcp.copy.steps.StepStats;
import io.sparkdcp.job.exec.PhaseRunner;
import io.sparkdcp.job.exec.TaskFunction;
import io.sparkdcp.progress.Work;

import java.util.List;

/** A runner that changes how tasks run and passes everything else to the one it wraps. */
public interface ForwardingPhaseRunner extends PhaseRunner {
    PhaseRunner delegate();

    @Override
    default <T, R> List<R> map(String phase, List<T> tasks, TaskFunction<T, R> function) {
        return delegate().map(phase, tasks, function);
    }

    @Override
    default int parallelism() { return delegate().parallelism(); }

    @Override
    default boolean spansNodes() { return delegate().spansNodes(); }

    @Override
    default String where() { return delegate().where(); }

    @Override
    default StepStats steps() { return delegate().steps(); }

    @Override
    default Work done() { return delegate().done(); }

    @Override
    default void settled() { delegate().settled(); }
}

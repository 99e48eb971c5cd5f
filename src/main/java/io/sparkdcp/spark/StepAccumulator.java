package io.sparkdcp.spark;

import io.sparkdcp.copy.steps.Step;
import io.sparkdcp.copy.steps.StepRecorder;
import io.sparkdcp.copy.steps.StepStats;
import org.apache.spark.util.AccumulatorV2;

/**
 * Step counts and nanoseconds from every task, shown by name in the Spark UI. On an executor the
 * engine records into it directly, so heartbeats carry running tasks' steps; Spark keeps only the
 * updates of each partition's successful attempt.
 */
public final class StepAccumulator extends AccumulatorV2<StepStats, StepStats> implements StepRecorder {
    private final StepStats stats;

    public StepAccumulator() {
        this(new StepStats());
    }

    private StepAccumulator(StepStats stats) {
        this.stats = stats;
    }

    @Override
    public boolean isZero() { return stats.isEmpty(); }

    @Override
    public AccumulatorV2<StepStats, StepStats> copy() { return new StepAccumulator(stats.copy()); }

    @Override
    public void reset() { stats.reset(); }

    @Override
    public void add(StepStats v) { stats.merge(v); }

    @Override
    public void record(Step step, long nanos) { stats.record(step, nanos); }

    @Override
    public void merge(AccumulatorV2<StepStats, StepStats> other) { stats.merge(other.value()); }

    @Override
    public StepStats value() { return stats; }
}

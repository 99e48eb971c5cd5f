package io.sparkdcp.spark;

import io.sparkdcp.copy.StepStats;
import org.apache.spark.util.AccumulatorV2;

/** Step counts and nanoseconds from every task, shown by name in the Spark UI. */
public final class StepAccumulator extends AccumulatorV2<StepStats, StepStats> {
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
    public void merge(AccumulatorV2<StepStats, StepStats> other) { stats.merge(other.value()); }

    @Override
    public StepStats value() { return stats; }
}

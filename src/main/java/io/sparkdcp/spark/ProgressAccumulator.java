package io.sparkdcp.spark;

import io.sparkdcp.copy.ProgressRecorder;
import io.sparkdcp.progress.Work;
import org.apache.spark.util.AccumulatorV2;

/**
 * Entries and bytes a task has handled, and how it moved the total ({@link Work}), added by the engine as it goes. Executors ship its
 * value with every heartbeat while the task runs, which is what makes live progress possible
 * ({@link HeartbeatProgress}). The fields are volatile: in local mode the driver reads the very
 * object the task thread writes.
 */
public final class ProgressAccumulator extends AccumulatorV2<Work, Work> implements ProgressRecorder {
    private volatile long entries;
    private volatile long bytes;
    private volatile long replanned;

    @Override
    public boolean isZero() { return entries == 0 && bytes == 0 && replanned == 0; }

    @Override
    public AccumulatorV2<Work, Work> copy() {
        ProgressAccumulator c = new ProgressAccumulator();
        c.add(value());
        return c;
    }

    @Override
    public void reset() {
        entries = 0;
        bytes = 0;
        replanned = 0;
    }

    @Override
    public void add(Work w) {
        done(w.entries(), w.bytes());
        replanned(w.replannedBytes());
    }

    /** One writer per instance (the task's thread, or the driver merging): no lost updates. */
    @Override
    public void done(long entries, long bytes) {
        this.entries += entries;
        this.bytes += bytes;
    }

    @Override
    public void replanned(long bytes) {
        this.replanned += bytes;
    }

    @Override
    public void merge(AccumulatorV2<Work, Work> other) { add(other.value()); }

    /** A snapshot: immutable, so heartbeats and listeners never see a value change under them. */
    @Override
    public Work value() { return new Work(entries, bytes, replanned); }
}

package io.sparkdcp.spark;

import io.sparkdcp.progress.Work;
import org.apache.spark.scheduler.AccumulableInfo;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerExecutorMetricsUpdate;
import org.apache.spark.scheduler.SparkListenerTaskEnd;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Progress on the driver while tasks run: the latest {@link ProgressAccumulator} value each
 * running task sent with its executor's heartbeat, plus the final values of the tasks that
 * succeeded. A failed attempt's partial work drops out when it ends (its retry reports afresh).
 * Listener events arrive on Spark's listener thread; {@link #done()} is read from another.
 */
final class HeartbeatProgress extends SparkListener {
    private final long accumulatorId;
    private final Map<Long, Work> running = new HashMap<>();
    /** A heartbeat sent just before a task ended can be delivered after its end: ignore it. */
    private final Set<Long> ended = new HashSet<>();
    private Work finished = Work.NONE;

    HeartbeatProgress(long accumulatorId) {
        this.accumulatorId = accumulatorId;
    }

    @Override
    public synchronized void onExecutorMetricsUpdate(SparkListenerExecutorMetricsUpdate update) {
        for (ScalaAdapter.TaskUpdates task : ScalaAdapter.taskUpdates(update)) {
            if (ended.contains(task.taskId())) continue;
            Work w = ours(task.accumulables());
            if (w != null) running.put(task.taskId(), w);
        }
    }

    @Override
    public synchronized void onTaskEnd(SparkListenerTaskEnd end) {
        long taskId = end.taskInfo().taskId();
        ended.add(taskId);
        running.remove(taskId);
        if (!end.taskInfo().successful()) return;
        Work w = ours(ScalaAdapter.accumulables(end.taskInfo()));
        if (w != null) finished = finished.plus(w);
    }

    synchronized Work done() {
        Work total = finished;
        for (Work w : running.values()) total = total.plus(w);
        return total;
    }

    /** This copy's accumulator among a task's updates; null when absent (Spark leaves zero values out). */
    private Work ours(List<AccumulableInfo> infos) {
        for (AccumulableInfo info : infos) {
            if (info.id() == accumulatorId && ScalaAdapter.update(info) instanceof Work w) return w;
        }
        return null;
    }
}

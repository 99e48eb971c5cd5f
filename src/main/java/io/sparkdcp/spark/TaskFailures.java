package io.sparkdcp.spark;

import org.apache.spark.ExceptionFailure;
import org.apache.spark.TaskFailedReason;
import org.apache.spark.TaskKilled;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;

/**
 * Counts the task attempts that failed and that Spark retries (an executor lost, a task that threw:
 * up to spark.task.maxFailures times),
 * with how many of them ran out of memory on an executor, so the report can say what happened
 * when the copy still succeeded. Events arrive on Spark's listener thread.
 */
final class TaskFailures extends SparkListener {
    /** Spark's exit code for an executor that died of an OutOfMemoryError (SparkExitCode.OOM). */
    private static final String OOM_EXIT = "code 52";

    /** @param example the first failure's reason, one line; null when none failed */
    record Summary(long failed, long outOfMemory, String example) {
        static final Summary NONE = new Summary(0, 0, null);
    }

    private Summary summary = Summary.NONE;

    @Override
    public synchronized void onTaskEnd(SparkListenerTaskEnd end) {
        // TaskKilled: cancelled on purpose (a job that already failed), not a failure to retry.
        if (!(end.reason() instanceof TaskFailedReason reason) || reason instanceof TaskKilled) return;
        String text = reason.toErrorString();
        boolean outOfMemory = reason instanceof ExceptionFailure e ? e.className().endsWith("OutOfMemoryError")
                : text.contains("OutOfMemoryError") || text.contains(OOM_EXIT);
        String example = summary.example() != null ? summary.example() : firstLine(text);
        summary = new Summary(summary.failed() + 1, summary.outOfMemory() + (outOfMemory ? 1 : 0), example);
    }

    synchronized Summary summary() {
        return summary;
    }

    private static String firstLine(String text) {
        String line = text.strip();
        int end = line.indexOf('\n');
        return end < 0 ? line : line.substring(0, end).strip();
    }
}

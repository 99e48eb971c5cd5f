package io.sparkdcp.api;

import io.sparkdcp.spark.SparkPhaseRunner;
import org.apache.spark.api.java.JavaSparkContext;

import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * Runs a job on a Spark context so that a driver that runs out of memory stops it: its jobs
 * (tagged) are cancelled, since a task-result thread that died of it leaves its job waiting for
 * ever, and the call throws {@link DriverOutOfMemoryException}. Copies, syncs and compares share it.
 */
final class DriverMemoryGuard {
    private DriverMemoryGuard() {
    }

    static <T> T run(JavaSparkContext sc, Function<SparkPhaseRunner, T> job) {
        String tag = "spark-dcp-" + UUID.randomUUID();
        AtomicReference<OutOfMemoryError> outOfMemory = new AtomicReference<>();
        sc.addJobTag(tag);
        try (OutOfMemoryWatch.Registration watch = OutOfMemoryWatch.watch(e -> {
                 if (outOfMemory.compareAndSet(null, e)) sc.cancelJobsWithTag(tag);
             });
             SparkPhaseRunner runner = new SparkPhaseRunner(sc)) {
            T result;
            try {
                result = job.apply(runner);
            } catch (Exception | OutOfMemoryError e) { // Exception: Spark throws its checked SparkException undeclared
                OutOfMemoryError driver = outOfMemory.get() != null ? outOfMemory.get() : onDriver(OutOfMemoryWatch.find(e), sc);
                if (driver != null) throw new DriverOutOfMemoryException(driver);
                Throwable tooBig = DriverOutOfMemoryException.findResultsTooBig(e);
                if (tooBig != null) throw DriverOutOfMemoryException.resultsTooBig(tooBig);
                throw e;
            }
            // Whatever thread it struck, the result cannot be trusted whole.
            if (outOfMemory.get() != null) throw new DriverOutOfMemoryException(outOfMemory.get());
            return result;
        } finally {
            sc.removeJobTag(tag);
        }
    }

    /**
     * The error if the driver threw it; null if none, or if an executor of a cluster threw it (a
     * task that failed spark.task.maxFailures times, its error sent back with Executor frames).
     * Local executors share the driver's heap.
     */
    private static OutOfMemoryError onDriver(OutOfMemoryError e, JavaSparkContext sc) {
        if (e == null || sc.isLocal()) return e;
        for (StackTraceElement frame : e.getStackTrace()) {
            if (frame.getClassName().startsWith("org.apache.spark.executor.")) return null;
        }
        return e;
    }
}

package io.sparkdcp.cli;

import io.sparkdcp.api.CompareResult;
import io.sparkdcp.api.CopyResult;
import io.sparkdcp.api.PreparedCompare;
import io.sparkdcp.api.PreparedCopy;
import io.sparkdcp.job.PhaseRunner;
import io.sparkdcp.spark.SparkPhaseRunner;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;

import java.util.function.Supplier;

/**
 * The Spark context of one copy, configured the way the job needs it. The commands reach Spark
 * only through here, so that a copy on threads in this JVM loads none of Spark's classes.
 */
final class SparkContexts {
    static final String DEFAULT_MASTER = "local[*]";
    static final String HEARTBEAT_INTERVAL = "2s";

    /** A job to run on a context. */
    interface Job {
        CopyResult run(JavaSparkContext sc);
    }

    /** Spark could not start (a bad master URL, say): a usage error, nothing was written. */
    static final class CannotStart extends RuntimeException {
        CannotStart(Exception cause) {
            super(cause.getMessage(), cause);
        }
    }

    private SparkContexts() {}

    /** Runs a job on a context of its own, stopped afterwards. */
    static CopyResult run(String masterOption, Job job) {
        return onOwnContext(masterOption, job::run);
    }

    private static <R> R onOwnContext(String masterOption, java.util.function.Function<JavaSparkContext, R> work) {
        JavaSparkContext sc;
        try {
            sc = start(masterOption);
        } catch (Exception e) { // Spark's own exceptions are checked ones Scala does not declare
            throw new CannotStart(e);
        }
        try {
            return work.apply(sc);
        } finally {
            sc.stop();
        }
    }

    /** A comparison on a context of its own, stopped afterwards. */
    static CompareResult compare(String masterOption, PreparedCompare compare) {
        return onOwnContext(masterOption, compare::run);
    }

    static Job sync(PreparedCopy copy, boolean delete) {
        return sc -> copy.runSync(sc, delete);
    }

    /** A new runner on sc for each of the bench's copies. */
    static Supplier<PhaseRunner> runners(JavaSparkContext sc) {
        return () -> new SparkPhaseRunner(sc);
    }

    /**
     * spark.driver.maxResultSize for a driver of this heap: a quarter of it (deserialised results
     * take several times their serialised size), at least 1 MiB, at most Spark's default of 1g.
     * The driver's heap is this JVM's, in client mode too.
     */
    static String maxResultSize(long heapBytes) {
        long mib = Math.max(1, Math.min(1024, heapBytes / 4 / (1024 * 1024)));
        return mib + "m";
    }

    /**
     * @param masterOption {@code --master}, or null: then spark-submit's master (it arrives as the
     *                     system property spark.master) or, run directly, the embedded local Spark
     */
    static JavaSparkContext start(String masterOption) {
        SparkConf conf = new SparkConf().setAppName("spark-dcp");
        if (masterOption != null) conf.setMaster(masterOption);
        else conf.setIfMissing("spark.master", DEFAULT_MASTER);
        // If missing only: a user who asks for speculation explicitly is refused loudly by
        // SparkPhaseRunner rather than silently overruled.
        conf.setIfMissing("spark.speculation", "false");
        // The progress bar would interleave with our stderr lines.
        conf.setIfMissing("spark.ui.showConsoleProgress", "false");
        // Running tasks' progress reaches the driver with executor heartbeats (default every 10 s).
        conf.setIfMissing("spark.executor.heartbeatInterval", HEARTBEAT_INTERVAL);
        // Results bigger than this fail the job with Spark's own message before they fill the heap.
        conf.setIfMissing("spark.driver.maxResultSize", maxResultSize(Runtime.getRuntime().maxMemory()));
        return new JavaSparkContext(conf);
    }
}

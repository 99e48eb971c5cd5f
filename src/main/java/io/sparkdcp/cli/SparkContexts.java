package io.sparkdcp.cli;

import io.sparkdcp.api.CompareResult;
import io.sparkdcp.api.CopyResult;
import io.sparkdcp.api.DryRun;
import io.sparkdcp.api.PreparedCompare;
import io.sparkdcp.api.PreparedCopy;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.util.regex.Pattern;

/**
 * The Spark context of one copy, configured the way the job needs it. The commands reach Spark
 * only through here, so that a copy on threads in this JVM loads none of Spark's classes. Its
 * {@code --master} check and {@link #start} are public for the commands of modules ({@link ModuleCommand}).
 */
public final class SparkContexts {
    public static final String DEFAULT_MASTER = "local[*]";
    static final String HEARTBEAT_INTERVAL = "2s";
    static final String DEFAULT_APP_NAME = "spark-dcp";

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

    /**
     * {@code --master}: refused while parsing when no Spark could start with it. Its own class,
     * loaded without SparkContexts (whose methods name Spark's types), for a run on threads.
     */
    public static final class MasterConverter implements ITypeConverter<String> {
        /**
         * The masters spark-submit accepts (yarn, spark…, k8s…, local…; the launcher's case pattern is
         * the same rule), with local's thread counts at least 1: anything else cannot start Spark.
         */
        private static final Pattern MASTER = Pattern.compile(
                "local|local\\[(\\*|[1-9]\\d*)(,[1-9]\\d*)?]|local-cluster\\[[1-9]\\d*,[1-9]\\d*,[1-9]\\d*]|yarn|spark://\\S+|k8s://\\S+");

        @Override
        public String convert(String value) {
            if (!MASTER.matcher(value).matches())
                throw new TypeConversionException("'" + value + "' is not a Spark master "
                        + "(expected local, local[N], local[*], spark://HOST:PORT, yarn or k8s://URL)");
            return value;
        }
    }

    /** Runs a job on a context of its own, stopped afterwards. */
    static CopyResult run(String masterOption, boolean verbose, Job job) {
        return onOwnContext(masterOption, verbose, job::run);
    }

    /** A comparison on a context of its own, stopped afterwards. */
    static CompareResult compare(String masterOption, boolean verbose, PreparedCompare compare) {
        return onOwnContext(masterOption, verbose, compare::run);
    }

    /** A dry run on a context of its own (a copy whose listing stays on the executors), stopped afterwards. */
    static DryRun dryRun(String masterOption, boolean verbose, PreparedCopy copy, boolean delete) {
        return onOwnContext(masterOption, verbose, sc -> copy.dryRun(sc, delete));
    }

    private static <R> R onOwnContext(String masterOption, boolean verbose, java.util.function.Function<JavaSparkContext, R> work) {
        JavaSparkContext sc;
        try {
            sc = start(masterOption, verbose);
        } catch (OpenMasterCheck.OpenMaster e) { // a usage error, not Spark failing to start
            throw e;
        } catch (Exception e) { // Spark's own exceptions are checked ones Scala does not declare
            throw new CannotStart(e);
        }
        Runnable cancel = sc::cancelAllJobs; // a signal stops the run: its jobs end at once
        Interruption.onInterrupt(cancel);
        try {
            return work.apply(sc);
        } finally {
            Interruption.removeOnInterrupt(cancel);
            sc.stop();
        }
    }

    static Job sync(PreparedCopy copy, boolean delete) {
        return sc -> copy.runSync(sc, delete);
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
     * @param verbose      false: a context that fails to start, or a run that stops, is reported by
     *                     the caller in one line, so Spark's own error logs of it (with stack traces)
     *                     are held back
     */
    public static JavaSparkContext start(String masterOption, boolean verbose) {
        SparkConf conf = configure(new SparkConf(), masterOption);
        OpenMasterCheck.refuseOpenMaster(conf);
        if (verbose) return new JavaSparkContext(conf);
        JavaSparkContext sc = Logging.quietDuring(Logging.SPARK_START, () -> new JavaSparkContext(conf));
        Logging.quiet(Logging.SPARK_TASK_FAILURES);
        return sc;
    }

    /**
     * The job's settings on top of what spark-submit gave ({@code submitted}: its options and
     * properties, which reach this JVM as system properties).
     */
    static SparkConf configure(SparkConf submitted, String masterOption) {
        SparkConf conf = submitted.setAppName(appName(submitted));
        if (masterOption != null) conf.setMaster(masterOption);
        else conf.setIfMissing("spark.master", DEFAULT_MASTER);
        // If missing only: a user who asks for speculation explicitly is refused loudly by
        // SparkPhaseRunner rather than silently overruled.
        conf.setIfMissing("spark.speculation", "false");
        // The progress bar would interleave with our stderr lines.
        conf.setIfMissing("spark.ui.showConsoleProgress", "false");
        // No one reaches the web UI of a copy on the embedded Spark, which ends in seconds, and its
        // Jetty server took a fifth of that Spark's start (docs/benchmarks.md); a user's
        // spark.ui.enabled (a -D, or spark-submit's --conf) is kept.
        if (isLocal(conf.get("spark.master"))) conf.setIfMissing("spark.ui.enabled", "false");
        // Running tasks' progress reaches the driver with executor heartbeats (default every 10 s).
        conf.setIfMissing("spark.executor.heartbeatInterval", HEARTBEAT_INTERVAL);
        // Results bigger than this fail the job with Spark's own message before they fill the heap.
        conf.setIfMissing("spark.driver.maxResultSize", maxResultSize(Runtime.getRuntime().maxMemory()));
        return conf;
    }

    /** local, local[N], local[*] and local[N,F]: Spark in this JVM. */
    static boolean isLocal(String master) {
        return master.equals("local") || master.startsWith("local[");
    }

    /**
     * spark-submit's {@code --name} or {@code spark.app.name} (YARN and Slurm show it), else
     * spark-dcp. Without either, spark-submit names the application after its main class: that
     * counts as no name.
     */
    static String appName(SparkConf submitted) {
        String name = submitted.get("spark.app.name", "").strip();
        return name.isEmpty() || name.equals(Main.class.getName()) ? DEFAULT_APP_NAME : name;
    }
}

package io.sparkdcp.cli;

import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.util.regex.Pattern;

/** The Spark context of one copy, configured the way the job needs it. */
final class SparkContexts {
    static final String DEFAULT_MASTER = "local[*]";
    static final String HEARTBEAT_INTERVAL = "2s";
    /**
     * The masters spark-submit accepts (yarn, spark…, k8s…, local…; the launcher's case pattern is
     * the same rule), with local's thread counts at least 1: anything else cannot start Spark.
     */
    private static final Pattern MASTER = Pattern.compile(
            "local|local\\[(\\*|[1-9]\\d*)(,[1-9]\\d*)?]|local-cluster\\[[1-9]\\d*,[1-9]\\d*,[1-9]\\d*]|yarn|spark://\\S+|k8s://\\S+");

    private SparkContexts() {}

    /** {@code --master}: refused while parsing when no Spark could start with it. */
    static final class MasterConverter implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            if (!MASTER.matcher(value).matches())
                throw new TypeConversionException("'" + value + "' is not a Spark master "
                        + "(expected local, local[N], local[*], spark://HOST:PORT, yarn or k8s://URL)");
            return value;
        }
    }

    /**
     * @param masterOption {@code --master}, or null: then spark-submit's master (it arrives as the
     *                     system property spark.master) or, run directly, the embedded local Spark
     * @param verbose      false: a context that fails to start, or a run that stops, is reported by
     *                     the caller in one line, so Spark's own error logs of it (with stack traces)
     *                     are held back
     */
    static JavaSparkContext start(String masterOption, boolean verbose) {
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
        if (verbose) return new JavaSparkContext(conf);
        JavaSparkContext sc = Logging.quietDuring(Logging.SPARK_START, () -> new JavaSparkContext(conf));
        Logging.quiet(Logging.SPARK_TASK_FAILURES);
        return sc;
    }
}

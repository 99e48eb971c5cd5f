package io.sparkdcp.cli;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.config.Configurator;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** {@code --verbose}: Spark's and spark-dcp's INFO messages, over log4j2.properties' quiet default. */
final class Logging {
    /** What logs a failed start of a SparkContext (its retries, its stack trace) before the exception reaches us. */
    static final List<String> SPARK_START = List.of("org.apache.spark.SparkContext", "org.apache.spark.metrics.MetricsSystem",
            "org.apache.spark.util.Utils");
    /** What logs a failed task or job, each with its stack trace, while the run stops with the same exception. */
    static final List<String> SPARK_TASK_FAILURES = List.of("org.apache.spark.executor.Executor",
            "org.apache.spark.scheduler.TaskSetManager", "org.apache.spark.scheduler.TaskSchedulerImpl",
            "org.apache.spark.scheduler.DAGScheduler");

    private Logging() {}

    static void verbose() {
        Configurator.setRootLevel(Level.INFO);
        Configurator.setLevel("org.apache.spark", Level.INFO);
        Configurator.setLevel("io.sparkdcp", Level.INFO);
    }

    /** Turns the given loggers off for the run of {@code action}; a failure is then told once, by us, in one line. */
    static <T> T quietDuring(List<String> loggers, Supplier<T> action) {
        Map<String, Level> before = new LinkedHashMap<>();
        for (String name : loggers) before.put(name, LogManager.getLogger(name).getLevel());
        Configurator.setLevel(loggers.stream().collect(java.util.stream.Collectors.toMap(n -> n, n -> Level.OFF)));
        try {
            return action.get();
        } finally {
            Configurator.setLevel(before);
        }
    }

    /** Turns the given loggers off for the rest of the run. */
    static void quiet(List<String> loggers) {
        for (String name : loggers) Configurator.setLevel(name, Level.OFF);
    }
}

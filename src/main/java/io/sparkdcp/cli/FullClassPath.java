package io.sparkdcp.cli;

import io.sparkdcp.api.Places;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

import java.util.List;

/**
 * The launcher runs copy, sync and compare on a short class path (the app jar and Jackson) unless its command line
 * holds one of {@link #OPTIONS}: Spark's master, or a saved listing, a state ledger or an item log ({@link #PLACES})
 * in a place of another scheme than {@code file:} (Hadoop's FileSystem: {@link Places}). A run that needs those jars all the same (spark.master set
 * through JAVA_TOOL_OPTIONS, a JVM started by hand) is refused in one line before anything is written, instead of
 * stopping half-way on a NoClassDefFoundError.
 */
final class FullClassPath {
    /** The options whose runs may need Spark's, Hadoop's or log4j's jars; the launcher looks for the same. */
    static final List<String> OPTIONS = List.of("--master", "--listing", "--save-listing", "--state", "--log");
    /** Of those, the ones whose value is a place: they need Hadoop's jars only for a place not on this machine. */
    static final List<String> PLACES = List.of("--listing", "--save-listing", "--state", "--log");
    /** One class of the jars the short class path leaves out: all are there or none. */
    private static final String SPARK_CLASS = "org.apache.spark.SparkContext";

    private FullClassPath() {}

    /** Why this run cannot go on with this JVM's class path; null when it can. */
    static String missingFor(CommandSpec spec) {
        ParseResult parsed = spec.commandLine().getParseResult();
        String wanted = OPTIONS.stream().filter(parsed::hasMatchedOption).filter(o -> !PLACES.contains(o)
                        || !Places.onThisMachine(String.valueOf(parsed.matchedOptionValue(o, "")))).findFirst()
                .orElse(System.getProperty("spark.master") != null ? "the system property spark.master" : null);
        if (wanted == null || present()) return null;
        return wanted + " needs Spark's, Hadoop's and log4j's jars, which this JVM's class path lacks (submit-scripts/spark-dcp "
                + "adds them when its command line holds --master, or one of " + String.join(", ", PLACES)
                + " with a place of another scheme than file:)";
    }

    private static boolean present() {
        try {
            Class.forName(SPARK_CLASS, false, FullClassPath.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }
}

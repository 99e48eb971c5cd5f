package io.sparkdcp.api;

/**
 * The driver JVM ran out of memory, so the copy was stopped (its Spark jobs cancelled) instead of
 * waiting for task results that would never arrive; or the tasks' results outgrew
 * spark.driver.maxResultSize, Spark's guard of the driver's heap. The message is one line: which memory ran
 * out, what to raise, and what needs less. The caller's JVM and Spark context stay up; running
 * the copy again with more memory resumes it.
 */
public final class DriverOutOfMemoryException extends RuntimeException {
    /** The driver memory that ran out; RESULTS: the tasks' results outgrew spark.driver.maxResultSize, which guards the heap. */
    public enum Memory { HEAP, DIRECT, RESULTS }

    static final String MAX_RESULT_SIZE = "spark.driver.maxResultSize";

    private static final String HEAP_ADVICE = "the driver ran out of heap memory (java.lang.OutOfMemoryError) and the run "
            + "was stopped: give it more with SPARK_DCP_DRIVER_MEMORY (the launcher and the submit scripts) or "
            + "spark.driver.memory, keep spark.driver.maxResultSize well below it, or make it hold less with "
            + "--walk distributed and smaller batches (--batch-files, --batch-bytes)";
    private static final String DIRECT_ADVICE = "the driver ran out of direct memory fetching task results "
            + "(OutOfDirectMemoryError) and the run was stopped: direct memory follows the heap, so give the driver more "
            + "with SPARK_DCP_DRIVER_MEMORY (the launcher and the submit scripts) or spark.driver.memory (or raise "
            + "-XX:MaxDirectMemorySize), keep spark.driver.maxResultSize below it, or make task results smaller with "
            + "--walk distributed and smaller batches (--batch-files, --batch-bytes)";

    private static final String RESULTS_ADVICE = "the tasks' results outgrew " + MAX_RESULT_SIZE + " and Spark "
            + "stopped the run before they filled the driver's heap: give the driver more with SPARK_DCP_DRIVER_MEMORY "
            + "(the launcher and the submit scripts) or spark.driver.memory (spark-dcp sets " + MAX_RESULT_SIZE
            + " to a quarter of the driver's heap, at most 1g, unless it is set), or need less with --walk distributed "
            + "and smaller batches (--batch-files, --batch-bytes)";

    private final Memory memory;

    public DriverOutOfMemoryException(OutOfMemoryError cause) {
        this(memoryOf(cause), advice(memoryOf(cause)), cause);
    }

    private DriverOutOfMemoryException(Memory memory, String message, Throwable cause) {
        super(message, cause);
        this.memory = memory;
    }

    /** Spark's own failure of a job whose results were bigger than spark.driver.maxResultSize; its words are kept. */
    static DriverOutOfMemoryException resultsTooBig(Throwable sparkFailure) {
        return new DriverOutOfMemoryException(Memory.RESULTS, RESULTS_ADVICE + " (Spark: " + firstLine(sparkFailure.getMessage()) + ")",
                sparkFailure);
    }

    /** The error among {@code t} and its causes that says the results outgrew spark.driver.maxResultSize, or null. */
    static Throwable findResultsTooBig(Throwable t) {
        for (int i = 0; t != null && i < 32; i++, t = t.getCause()) {
            if (t.getMessage() != null && t.getMessage().contains("bigger than " + MAX_RESULT_SIZE)) return t;
        }
        return null;
    }

    private static String firstLine(String message) {
        String line = message.strip();
        int end = line.indexOf('\n');
        line = end < 0 ? line : line.substring(0, end).strip();
        String prefix = "Job aborted due to stage failure: ";
        return line.startsWith(prefix) ? line.substring(prefix.length()) : line;
    }

    public Memory memory() { return memory; }

    /**
     * Which memory an error says ran out: the JDK's and Netty's direct-memory errors, else the heap. Allocates
     * nothing once its string constants are made: the JVM makes each on the heap at its first use.
     */
    public static Memory memoryOf(OutOfMemoryError e) {
        String message = e.getMessage();
        boolean direct = e.getClass().getName().equals("io.netty.util.internal.OutOfDirectMemoryError")
                || message != null && (message.contains("irect buffer memory") || message.contains("of direct memory"));
        return direct ? Memory.DIRECT : Memory.HEAP;
    }

    /** The one-line message for each memory: constants, so telling it needs no memory. */
    public static String advice(Memory memory) {
        return switch (memory) {
            case HEAP -> HEAP_ADVICE;
            case DIRECT -> DIRECT_ADVICE;
            case RESULTS -> RESULTS_ADVICE;
        };
    }
}

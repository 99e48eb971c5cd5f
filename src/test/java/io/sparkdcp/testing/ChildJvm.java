package io.sparkdcp.testing;

import java.util.List;

/**
 * Flags for the JVMs tests start that live for seconds: the Spark masters, workers, drivers and
 * executors of the test clusters (standalone, Slurm, YARN) and the soak's killed copies. C1 only:
 * such a JVM spends its CPU starting up and compiling code that runs a few times, and a Slurm or
 * YARN test starts a dozen of them on CI's two cores. Exit codes, signals and trees do not depend
 * on the JIT; spark-dcp's own launcher and scripts keep their flags.
 */
public final class ChildJvm {
    public static final List<String> FLAGS = List.of("-XX:TieredStopAtLevel=1");

    private ChildJvm() {}

    /** The flags as one option string: spark-class, spark.executor.defaultJavaOptions. */
    public static String flags() {
        return String.join(" ", FLAGS);
    }
}

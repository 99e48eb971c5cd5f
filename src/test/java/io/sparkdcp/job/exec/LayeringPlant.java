package io.sparkdcp.job.exec;

/** A planted violation for LayeringTest: the execution seam reaching up into a recipe. */
public final class LayeringPlant {
    private LayeringPlant() {}

    static Object recipe(JobOptions options, PhaseRunner runner) {
        return new io.sparkdcp.job.CopyJob(options, runner, line -> {});
    }
}

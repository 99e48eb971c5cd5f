package io.sparkdcp.copy;

/** Where the engine reports each timed step. Spark accumulates these; tests read a {@link StepStats}. */
public interface StepRecorder {
    void record(Step step, long nanos);
}

package io.sparkdcp.copy.steps;

import java.util.function.Supplier;

/**
 * Where the engine reports each timed step. Spark accumulates these; tests read a {@link StepStats}.
 * The per-file calls are timed with {@link #start} and {@link #stop} around them, not {@link #time}:
 * C1, which is all a local copy's JVM runs, allocates every capturing lambda through a slow VM call.
 */
public interface StepRecorder {
    void record(Step step, long nanos);

    /** Before the call timed as step: its start, for {@link #stop}. */
    default long start(Step step) {
        return System.nanoTime();
    }

    /** After the call {@link #start} began, whether it returned or threw (call it in a finally). */
    default void stop(Step step, long start) {
        record(step, System.nanoTime() - start);
    }

    /** Runs call and records its time as step, whether it returns or throws. */
    default <T> T time(Step step, Supplier<T> call) {
        long start = start(step);
        try {
            return call.get();
        } finally {
            stop(step, start);
        }
    }

    /** Runs call and records its time as step, whether it returns or throws. */
    default void time(Step step, Runnable call) {
        long start = start(step);
        try {
            call.run();
        } finally {
            stop(step, start);
        }
    }
}

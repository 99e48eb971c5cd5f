package io.sparkdcp.copy;

import java.util.function.Supplier;

/** Where the engine reports each timed step. Spark accumulates these; tests read a {@link StepStats}. */
public interface StepRecorder {
    void record(Step step, long nanos);

    /** Runs call and records its time as step, whether it returns or throws. */
    default <T> T time(Step step, Supplier<T> call) {
        long start = System.nanoTime();
        try {
            return call.get();
        } finally {
            record(step, System.nanoTime() - start);
        }
    }

    /** Runs call and records its time as step, whether it returns or throws. */
    default void time(Step step, Runnable call) {
        long start = System.nanoTime();
        try {
            call.run();
        } finally {
            record(step, System.nanoTime() - start);
        }
    }
}

package io.sparkdcp.job;

import io.sparkdcp.copy.Step;
import io.sparkdcp.copy.StepRecorder;

/** Lets the threads of one task record into the task's recorder, which is not thread-safe. */
final class LockedRecorder implements StepRecorder {
    private final StepRecorder target;

    LockedRecorder(StepRecorder target) {
        this.target = target;
    }

    @Override
    public synchronized void record(Step step, long nanos) {
        target.record(step, nanos);
    }
}

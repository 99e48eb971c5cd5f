package io.sparkdcp.job.inflight;

import io.sparkdcp.copy.ProgressRecorder;
import io.sparkdcp.copy.steps.Step;
import io.sparkdcp.copy.steps.StepRecorder;

/** Lets the threads of one task record into the task's recorders, which expect a single writer. */
final class LockedRecorder implements StepRecorder, ProgressRecorder {
    private final StepRecorder steps;
    private final ProgressRecorder progress;

    LockedRecorder(StepRecorder steps, ProgressRecorder progress) {
        this.steps = steps;
        this.progress = progress;
    }

    @Override
    public synchronized void record(Step step, long nanos) {
        steps.record(step, nanos);
    }

    @Override
    public synchronized void done(long entries, long bytes) {
        progress.done(entries, bytes);
    }

    @Override
    public synchronized void replanned(long bytes) {
        progress.replanned(bytes);
    }
}

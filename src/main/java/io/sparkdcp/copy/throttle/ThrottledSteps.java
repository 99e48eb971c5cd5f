package io.sparkdcp.copy.throttle;

import io.sparkdcp.copy.steps.Step;
import io.sparkdcp.copy.steps.StepRecorder;

/**
 * Where {@code --max-ops} holds the engine back: every metadata call is timed as a {@link Step}, so
 * each one takes a slot of the ops bucket here, before the call when it is timed by {@link #start}
 * (or {@link #time}), after it when its caller timed it and records it. Data and verification move
 * bytes: not counted.
 */
final class ThrottledSteps implements StepRecorder {
    private final StepRecorder steps;
    private final RateLimiter ops;

    ThrottledSteps(StepRecorder steps, RateLimiter ops) {
        this.steps = steps;
        this.ops = ops;
    }

    @Override
    public void record(Step step, long nanos) {
        steps.record(step, nanos);
        if (step.metadata()) ops.acquire(1);
    }

    @Override
    public long start(Step step) {
        if (step.metadata()) ops.acquire(1);
        return steps.start(step);
    }

    @Override
    public void stop(Step step, long start) {
        steps.stop(step, start); // its slot was taken at the start
    }
}

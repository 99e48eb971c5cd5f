package io.sparkdcp.copy.throttle;

import io.sparkdcp.copy.steps.StepRecorder;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One JVM's buckets of one job: its share of {@code --max-ops} and of {@code --bwlimit}, drawn from
 * by every task of the job running in this JVM, and their threads, from stage to stage. A JVM that
 * outlives its jobs (a notebook's, an executor's) keeps the last few jobs' buckets only.
 */
public final class JobLimits {
    static final JobLimits NONE = new JobLimits(null, null);

    private static final int JOBS_KEPT = 16;
    private static final Map<String, JobLimits> HELD = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, JobLimits> eldest) {
            return size() > JOBS_KEPT;
        }
    };

    private final RateLimiter ops;
    private final RateLimiter bytes;

    private JobLimits(RateLimiter ops, RateLimiter bytes) {
        this.ops = ops;
        this.bytes = bytes;
    }

    /** The job's buckets in this JVM, at this JVM's share of its rates (a stage may divide them anew). */
    public static JobLimits of(Throttle throttle) {
        if (!throttle.limits()) return NONE;
        synchronized (HELD) {
            JobLimits limits = HELD.get(throttle.job());
            if (limits == null) {
                limits = new JobLimits(limiter(throttle.opsPerJvm()), limiter(throttle.bytesPerJvm()));
                HELD.put(throttle.job(), limits);
            } else {
                if (limits.ops != null) limits.ops.setRate(throttle.opsPerJvm());
                if (limits.bytes != null) limits.bytes.setRate(throttle.bytesPerJvm());
            }
            return limits;
        }
    }

    /** The engine's steps, each metadata call waiting for its slot under --max-ops. */
    public StepRecorder throttled(StepRecorder steps) {
        return ops == null ? steps : new ThrottledSteps(steps, ops);
    }

    /** The --bwlimit bucket, or null when bytes are not limited. */
    public RateLimiter bytes() {
        return bytes;
    }

    private static RateLimiter limiter(double perSecond) {
        return perSecond > 0 ? new RateLimiter(perSecond) : null;
    }
}

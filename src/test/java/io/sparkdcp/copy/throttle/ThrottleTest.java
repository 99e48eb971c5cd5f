package io.sparkdcp.copy.throttle;

import io.sparkdcp.copy.steps.Step;
import io.sparkdcp.copy.steps.StepRecorder;
import io.sparkdcp.copy.steps.StepStats;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/** How the job's rates are divided and shared; the timing itself is ThrottleRunTest's, on XFS. */
@Tag("fast")
class ThrottleTest {
    @Test
    void eachJvmTakesAnEqualShareOfTheJobsRates() {
        Throttle job = Throttle.of(1000, 32L << 20);
        assertEquals(1000.0, job.opsPerJvm());
        Throttle onFour = job.sharedBy(4);
        assertEquals(250.0, onFour.opsPerJvm());
        assertEquals((32L << 20) / 4.0, onFour.bytesPerJvm());
        assertEquals(job.job(), onFour.job());
        assertSame(Throttle.NONE, Throttle.of(0, 0));
        assertSame(Throttle.NONE, Throttle.NONE.sharedBy(4));
    }

    @Test
    void theTasksOfAJobInOneJvmDrawFromOneBucketAndAnotherJobFromItsOwn() {
        Throttle job = Throttle.of(1000, 0);
        JobLimits first = JobLimits.of(job);
        JobLimits second = JobLimits.of(job.sharedBy(2)); // a later stage, divided anew
        assertSame(first, second);
        assertNotSame(first, JobLimits.of(Throttle.of(1000, 0)));
        assertSame(JobLimits.NONE, JobLimits.of(Throttle.NONE));
        assertEquals(null, first.bytes(), "bytes not limited");
    }

    @Test
    void dataStepsTakeNoSlotOfTheMetadataRate() {
        StepStats stats = new StepStats();
        // One call an hour: the first takes the slot at once, and a data or verify step taking a slot after it
        // would wait the hour (the deadline only bounds that wait; the thread is interrupted at it).
        StepRecorder steps = JobLimits.of(Throttle.of(1, 0).sharedBy(3600)).throttled(stats);
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            steps.time(Step.OPEN_SRC, () -> {});
            for (int i = 0; i < 5; i++) steps.record(Step.DATA, 1);
            for (int i = 0; i < 5; i++) steps.time(Step.VERIFY, () -> {});
        }, "data and verify waited for metadata slots");
        assertEquals(1, stats.metadataCalls());
        assertEquals(5, stats.count(Step.DATA));
    }
}

package io.sparkdcp.progress;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Tag("fast")
class ProgressLineTest {
    private static final long TEN_SECONDS = 10_000_000_000L;

    @Test
    void showsDoneOutOfTotalWithRates() {
        String line = ProgressLine.format(new Work(2_500, 500L << 20), new Work(10_000, 2L << 30), TEN_SECONDS);
        assertTrue(line.startsWith("progress: 2,500/10,000 entries, 500.0 MiB/2.0 GiB, 50.0 MiB/s, 250 entries/s, "), line);
    }

    @Test
    void etaFollowsTheMeasureLeastDone() {
        // A quarter of the entries but half the bytes: 10 s for a quarter leaves 30 s.
        assertEquals("0:00:30", ProgressLine.eta(new Work(25, 50), new Work(100, 100), 10));
    }

    @Test
    void etaIsUnknownBeforeAnythingIsDone() {
        assertEquals("unknown", ProgressLine.eta(Work.NONE, new Work(100, 100), 3));
    }

    @Test
    void aTreeWithoutFileDataCountsEntriesOnly() {
        assertEquals("0:00:01", ProgressLine.eta(new Work(50, 0), new Work(100, 0), 1));
    }

    @Test
    void ratesAndTimeLeftCountOnlyWhatWasDoneSinceTheClockStarted() {
        // A copy on threads did 5,000 entries while the walk listed; 1,000 more in the 10 s since the totals came.
        String line = ProgressLine.format(new Work(6_000, 0), new Work(5_000, 0), new Work(10_000, 0), TEN_SECONDS);
        assertTrue(line.contains(", 100 entries/s, "), line);
        assertTrue(line.endsWith("ETA 0:00:40"), line);
    }

    @Test
    void nothingLeftIsNoTimeLeftEvenWithNothingDoneSince() {
        assertEquals("0:00:00", ProgressLine.eta(new Work(100, 100), new Work(100, 100), new Work(100, 100), 3));
    }
}

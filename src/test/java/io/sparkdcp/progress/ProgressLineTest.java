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
    void aLargeFileWhoseBytesFlowHasATimeLeftThatFallsThoughItsEntryIsNotDone() {
        // Its directory done, the file not: 100 MiB more in each 10 s window, of 1,000 MiB.
        Work total = new Work(2, 1000L << 20);
        String earlier = ProgressLine.eta(new Work(1, 500L << 20), new Work(1, 400L << 20), total, 10);
        String later = ProgressLine.eta(new Work(1, 900L << 20), new Work(1, 800L << 20), total, 10);
        assertEquals("0:00:50", earlier);
        assertEquals("0:00:10", later);
    }

    @Test
    void theTotalIsTheListingsAsTheWorkDoneMovedIt() {
        // 100 MiB listed; a file kept as it was took 40 MiB out: 30 MiB done of 60 MiB.
        String line = ProgressLine.format(new Work(5, 30L << 20, -(40L << 20)), new Work(10, 100L << 20), TEN_SECONDS);
        assertTrue(line.startsWith("progress: 5/10 entries, 30.0 MiB/60.0 MiB, "), line);
    }

    @Test
    void nothingLeftIsNoTimeLeftEvenWithNothingDoneSince() {
        assertEquals("0:00:00", ProgressLine.eta(new Work(100, 100), new Work(100, 100), new Work(100, 100), 3));
    }
}

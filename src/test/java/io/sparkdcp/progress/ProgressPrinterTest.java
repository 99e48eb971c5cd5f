package io.sparkdcp.progress;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Tag("fast")
class ProgressPrinterTest {
    private static final long MIB = 1 << 20;

    /** A copy that moved fast and then stalled shows the stall once the window has passed it, not the average. */
    @Test
    void theRatesAreThoseOfTheWindowNotOfTheWholeCopy() throws Exception {
        List<String> lines = Collections.synchronizedList(new ArrayList<>());
        AtomicReference<Work> done = new AtomicReference<>(Work.NONE);
        try (ProgressPrinter printer = new ProgressPrinter(Duration.ofMillis(100), Duration.ofMillis(500), done::get, lines::add)) {
            printer.planned(new Work(10, 100 * MIB));
            Thread.sleep(300);
            done.set(new Work(5, 50 * MIB)); // then nothing more
            Thread.sleep(1_200); // the window (500 ms) has passed the stall
            int stalled = lines.size();
            // Two lines more, however long a loaded machine keeps the printer's thread waiting.
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (lines.size() < stalled + 2 && System.nanoTime() < deadline) Thread.sleep(20);
            List<String> since = List.copyOf(lines).subList(stalled, lines.size());
            assertTrue(!since.isEmpty(), "lines go on while nothing moves: " + lines);
            for (String line : since) {
                assertTrue(line.contains(", 0 B/s, 0 entries/s, ETA unknown"), "the window saw nothing move: " + line);
            }
        }
    }

    @Test
    void theLastLineIsWhatWasDoneWhenTheCopyEnded() throws Exception {
        List<String> lines = Collections.synchronizedList(new ArrayList<>());
        AtomicReference<Work> done = new AtomicReference<>(Work.NONE);
        try (ProgressPrinter printer = new ProgressPrinter(Duration.ofMillis(100), done::get, lines::add)) {
            printer.planned(new Work(3, 6 * MIB));
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (lines.isEmpty() && System.nanoTime() < deadline) Thread.sleep(10);
            assertTrue(!lines.isEmpty(), "a line while copying");
            done.set(new Work(3, 5 * MIB, -MIB)); // a file of 1 MiB kept as it was
            printer.finished();
            int after = lines.size();
            printer.finished();
            assertEquals(after, lines.size(), "nothing after the last line: " + lines);
        }
        String last = lines.get(lines.size() - 1);
        assertTrue(last.startsWith("progress: 3/3 entries, 5.0 MiB/5.0 MiB, "), last);
        assertTrue(last.endsWith("ETA 0:00:00"), last);
    }

    /** A copy over before its first line adds none to a log: no last line of a progress never shown. */
    @Test
    void aCopyShorterThanTheIntervalPrintsNoLine() {
        List<String> lines = new ArrayList<>();
        AtomicReference<Work> done = new AtomicReference<>(Work.NONE);
        try (ProgressPrinter printer = new ProgressPrinter(Duration.ofHours(1), done::get, lines::add)) {
            printer.planned(new Work(3, 6 * MIB));
            done.set(new Work(3, 6 * MIB));
            printer.finished();
        }
        assertEquals(List.of(), lines);
    }
}

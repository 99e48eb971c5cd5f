package io.sparkdcp.report;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Tag("fast")
class ReportTextTest {
    private static final List<String> LINES = ReportText.render(SampleReports.mixed(), new ReportText.Detail(true, false)).lines().toList();

    /** The line that starts with these words, split into its columns. */
    private static List<String> row(String... first) {
        for (String line : LINES) {
            List<String> cells = List.of(line.strip().split("\\s+"));
            if (cells.size() >= first.length && cells.subList(0, first.length).equals(List.of(first))) return cells;
        }
        throw new AssertionError("no line starting with " + List.of(first) + " in\n" + String.join("\n", LINES));
    }

    @Test
    void countsEntriesByType() {
        assertEquals(List.of("file", "2", "0"), row("file"));
        assertEquals(List.of("char", "device", "1", "0"), row("char", "device"));
        assertEquals(List.of("symlink", "0", "1"), row("symlink"));
        assertEquals(List.of("hard", "link", "1", "0"), row("hard", "link"));
        assertEquals(List.of("total", "5", "2"), row("total"));
        assertEquals(List.of("failed:", "1"), row("failed:"));
    }

    @Test
    void givesBytesWallTimeAndRates() {
        assertEquals(List.of("bytes", "copied:", "3,000,000", "(2.9", "MiB)"), row("bytes", "copied:"));
        // 8 entries handled (5 copied, 2 skipped, 1 failed) and 3,000,000 bytes (1.43 MiB/s) in 2 seconds.
        assertEquals(List.of("wall", "time:", "2.00", "s,", "4", "entries/s,", "1.4", "MiB/s"), row("wall", "time:"));
    }

    @Test
    void tabulatesStepsWithCountTimePerCallAndShare() {
        assertEquals(List.of("open_src", "3", "3.0", "1,000.00", "75.0%"), row("open_src"));
        assertEquals(List.of("data", "1", "1.0", "1,000.00", "25.0%"), row("data"));
        assertTrue(LINES.stream().noneMatch(l -> l.startsWith("xattr_set")), "steps that never ran are left out");
    }

    @Test
    void showsTheLimitsAndTheRatesAchievedOnlyWhenLimited() {
        assertTrue(LINES.stream().noneMatch(l -> l.startsWith("limits")), "no limits, no line");
        List<String> limited = ReportText.render(SampleReports.mixed(io.sparkdcp.copy.throttle.Throttle.of(100, 200L << 20))).lines()
                .filter(l -> l.startsWith("limits:")).toList();
        // 3 metadata calls (open_src; data is not one) and 3,000,000 bytes in 2 s; --bwlimit 200M reads back as it was given.
        assertEquals(List.of("limits: metadata calls 100/s (achieved 2/s), data 200.0 MiB/s (achieved 1.4 MiB/s)"), limited);
    }

    @Test
    void theStepTableIsShownOnlyWhenAskedFor() {
        assertTrue(LINES.stream().anyMatch(l -> l.startsWith("step ")), String.join("\n", LINES));
        String plain = ReportText.render(SampleReports.mixed());
        assertTrue(plain.lines().noneMatch(l -> l.startsWith("step ") || l.startsWith("open_src")), plain);
    }

    @Test
    void aRunThatMadeNothingSaysSoInsteadOfATableOfZeros() {
        String text = ReportText.render(SampleReports.identical(), new ReportText.Detail(true, false));
        List<String> lines = text.lines().toList();
        assertTrue(lines.contains("nothing to copy: 3 entries already identical"), text);
        assertTrue(lines.contains("nothing was made or changed: the steps below only read and compared"), text);
        assertTrue(lines.stream().noneMatch(l -> l.startsWith("entries ")), text);
        assertTrue(LINES.stream().noneMatch(l -> l.startsWith("nothing")), "a run that copied shows its table");
    }

    @Test
    void statsEndsWithRsyncsClosingSummary() {
        List<String> stats = ReportText.render(SampleReports.mixed(), new ReportText.Detail(false, true)).lines()
                .dropWhile(l -> !l.startsWith("Number of files")).toList();
        assertEquals(List.of("Number of files: 8", "Number of created files: 5", "Number of deleted files: 0",
                "Number of regular files transferred: 2", "Total file size: 3,000,000 bytes (2.9 MiB)",
                "Total transferred file size: 3,000,000 bytes (2.9 MiB)", "Transfer rate: 1.4 MiB/s over 2.00 s",
                "total size is 3,000,000  speedup is 1.00"), stats);
        String identical = ReportText.render(SampleReports.identical(), new ReportText.Detail(false, true));
        assertTrue(identical.contains("total size is 2,048  speedup is n/a (no file data transferred)"), identical);
        assertTrue(LINES.stream().noneMatch(l -> l.startsWith("Number of files")), "only with --stats");
    }
}

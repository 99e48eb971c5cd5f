package io.sparkdcp.bench;

import io.sparkdcp.copy.steps.Step;

import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The bench's text output: one row per contender (wall median, min, max, median CPU seconds, rates,
 * ratio to the first), then the engine's steps in µs per file, one column per contender, so the steps that
 * make a difference stand side by side. Step µs add up over threads: compare them across columns,
 * not with the wall time.
 */
public final class BenchTable {
    private BenchTable() {}

    public static String render(BenchReport report) {
        StringBuilder out = new StringBuilder();
        SourceSummary t = report.tree();
        line(out, "spark-dcp bench: %s (%,d files, %,d directories, %.1f MB), %d round%s, %s", report.source(), t.files(),
                t.dirs(), t.bytes() / 1e6, report.rounds(), report.rounds() == 1 ? "" : "s", report.setting());
        line(out, "%-24s %9s %9s %9s %9s %10s %9s %9s %7s", "contender", "median s", "min s", "max s", "cpu s", "files/s",
                "MB/s", "ratio", "failed");
        ContenderResult base = report.baseline();
        for (ContenderResult c : report.contenders()) {
            line(out, "%-24s %9.3f %9.3f %9.3f %9.2f %,10.0f %9.1f %9.3f %,7d", c.name(), c.medianNanos() / 1e9, c.minNanos() / 1e9,
                    c.maxNanos() / 1e9, c.medianCpuNanos() / 1e9, report.filesPerSecond(c), report.megabytesPerSecond(c),
                    c.ratioTo(base), c.failed());
        }
        steps(out, report);
        requests(out, report);
        syscalls(out, report);
        return out.toString();
    }

    private static void steps(StringBuilder out, BenchReport report) {
        Set<Step> ran = new LinkedHashSet<>();
        for (ContenderResult c : report.contenders()) ran.addAll(c.stepMicrosPerFile(report.tree().files()).keySet());
        if (ran.isEmpty()) return;
        StringBuilder header = new StringBuilder(String.format("%-12s", "µs per file"));
        for (ContenderResult c : report.contenders()) header.append(String.format(" %24s", c.name()));
        line(out, "%s", header);
        for (Step s : Step.values()) {
            if (!ran.contains(s)) continue;
            StringBuilder row = new StringBuilder(String.format("%-12s", s.label()));
            for (ContenderResult c : report.contenders()) {
                Map<Step, Double> micros = c.stepMicrosPerFile(report.tree().files());
                row.append(micros.containsKey(s) ? String.format(Locale.ROOT, " %24.2f", micros.get(s)) : String.format(" %24s", "-"));
            }
            line(out, "%s", row);
        }
    }

    /** The latency file system's requests per file: the round trips each way costs. */
    private static void requests(StringBuilder out, BenchReport report) {
        long files = report.tree().files();
        Set<String> kinds = new java.util.TreeSet<>();
        for (ContenderResult c : report.contenders()) kinds.addAll(c.requestsPerFile(files).keySet());
        if (kinds.isEmpty()) return;
        StringBuilder header = new StringBuilder(String.format("%-18s", "requests per file"));
        for (ContenderResult c : report.contenders()) header.append(String.format(" %24s", c.name()));
        line(out, "%s", header);
        for (String kind : kinds) {
            StringBuilder row = new StringBuilder(String.format("%-18s", kind));
            for (ContenderResult c : report.contenders()) {
                row.append(String.format(Locale.ROOT, " %24.2f", c.requestsPerFile(files).getOrDefault(kind, 0.0)));
            }
            line(out, "%s", row);
        }
    }

    private static void syscalls(StringBuilder out, BenchReport report) {
        if (report.syscalls().isEmpty()) return;
        StringBuilder header = new StringBuilder(String.format("%-18s", "strace per file"));
        StringBuilder calls = new StringBuilder(String.format("%-18s", "file syscalls"));
        StringBuilder lookups = new StringBuilder(String.format("%-18s", "path look-ups"));
        for (ContenderResult c : report.contenders()) {
            SyscallCount n = report.syscalls().get(c.name());
            header.append(String.format(" %24s", c.name()));
            calls.append(n == null ? String.format(" %24s", "-") : String.format(Locale.ROOT, " %24.2f", n.fileCallsPerFile()));
            lookups.append(n == null ? String.format(" %24s", "-") : String.format(Locale.ROOT, " %24.2f", n.pathLookupsPerFile()));
        }
        line(out, "%s", header);
        line(out, "%s", calls);
        line(out, "%s", lookups);
    }

    private static void line(StringBuilder out, String format, Object... args) {
        out.append(String.format(Locale.ROOT, format, args)).append('\n');
    }
}

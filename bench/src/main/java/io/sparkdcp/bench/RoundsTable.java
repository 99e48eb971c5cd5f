package io.sparkdcp.bench;

import java.util.List;
import java.util.Locale;

/**
 * Wall seconds of every round, one column per contender, in the layout of the measurements that
 * started this project (mpifileutils PR #594: "without projid / with projid", ten rows), then
 * the median and its ratio to the first column.
 */
public final class RoundsTable {
    private RoundsTable() {}

    public static String render(BenchReport report) {
        List<ContenderResult> cs = report.contenders();
        StringBuilder out = new StringBuilder();
        row(out, "round", cs.stream().map(ContenderResult::name).toList());
        for (int r = 0; r < report.rounds(); r++) {
            int round = r;
            row(out, String.valueOf(r + 1), cs.stream().map(c -> seconds(c.rounds().get(round).wallNanos())).toList());
        }
        row(out, "median", cs.stream().map(c -> seconds(c.medianNanos())).toList());
        row(out, "ratio", cs.stream().map(c -> String.format(Locale.ROOT, "%.3f", c.ratioTo(report.baseline()))).toList());
        return out.toString();
    }

    private static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.3f", nanos / 1e9);
    }

    private static void row(StringBuilder out, String first, List<String> cells) {
        out.append(first);
        for (String c : cells) out.append('\t').append(c);
        out.append('\n');
    }
}

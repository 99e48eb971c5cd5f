package io.sparkdcp.bench.scale;

import java.util.Locale;

/** The scale benchmark's result as text: memory per entry, walk rates against find's, copy rates against the small tree's. */
public final class ScaleTable {
    private ScaleTable() {}

    private static double rate(ScaleBench.Result r, String walker, boolean cold) {
        return r.walks().stream().filter(f -> f.walker().equals(walker) && f.cold() == cold).findFirst().orElseThrow().entriesPerSecond();
    }

    public static String render(ScaleBench.Result r) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "Tree: %,d entries, %,d directories%n", r.entries(), r.directories()));
        out.append(String.format(Locale.ROOT, "Driver heap after GC, listing and plan: %.1f B/entry (as one object per entry: %.1f B/entry)%n",
                r.packedBytesPerEntry(), r.objectBytesPerEntry()));
        out.append(String.format(Locale.ROOT, "%n%-40s %-6s %12s %9s %13s%n", "Walk", "caches", "entries/s", "vs find", "vs find+stat"));
        for (ScaleBench.WalkRate w : r.walks()) {
            out.append(String.format(Locale.ROOT, "%-40s %-6s %,12.0f %8.2fx %12.2fx%n", w.walker(), w.cold() ? "cold" : "warm",
                    w.entriesPerSecond(), w.entriesPerSecond() / rate(r, ScaleBench.FIND, w.cold()),
                    w.entriesPerSecond() / rate(r, ScaleBench.FIND_STAT, w.cold())));
        }
        if (!r.coldCaches()) out.append("(not root: caches could not be dropped, warm walks and copies only)\n");
        out.append(String.format(Locale.ROOT, "%n%-10s %12s %9s %12s %9s %7s%n", r.coldCaches() ? "Copy, cold" : "Copy", "entries", "seconds", "entries/s", "vs small", "failed"));
        double small = r.copies().get(0).entriesPerSecond();
        for (ScaleBench.CopyRate c : r.copies()) {
            out.append(String.format(Locale.ROOT, "%-10s %,12d %9.1f %,12.0f %8.2fx %7d%n", c.tree(), c.entries(), c.seconds(),
                    c.entriesPerSecond(), c.entriesPerSecond() / small, c.failed()));
        }
        return out.toString();
    }
}

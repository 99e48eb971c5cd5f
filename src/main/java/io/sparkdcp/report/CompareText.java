package io.sparkdcp.report;

import io.sparkdcp.copy.compare.Difference;

import java.util.Locale;
import java.util.Map;

/** The compare command's summary on stdout: what was compared, then the differences by kind. */
public final class CompareText {
    private CompareText() {}

    public static String render(CompareReport r) {
        CompareReport.Numbers n = r.numbers();
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "compared %s and %s%n", r.source(), r.destination()));
        out.append(String.format(Locale.ROOT, "  entries: %,d in SRC, %,d in DST, %,d in both%n",
                n.entriesSource(), n.entriesDestination(), n.compared()));
        out.append(String.format(Locale.ROOT, "  compared: type, size, mode, owner, group, mtime (%s), device numbers, "
                        + "symlink targets, hard links, xattrs (%s)%s%s%s%n",
                r.timeWindowNanos() == 0 ? "to the nanosecond" : "within " + r.timeWindowNanos() + " ns",
                r.settings().xattrs().word(), r.settings().projectIds() ? ", project IDs and PROJINHERIT" : "",
                r.settings().flags() ? ", inode flags and extent-size hints" : "",
                r.settings().modes().compareContents() ? ", file contents (" + Counted.of(n.bytesCompared(), "byte") + " on each side)"
                        : "; file contents not read (--contents reads them)"));
        if (r.differences().isEmpty()) {
            out.append(r.failures().isEmpty() ? "identical\n"
                    : "no differences found, but " + Counted.of(r.failures().size(), "entry") + " could not be compared\n");
            return out.toString();
        }
        out.append(String.format(Locale.ROOT, "%s in %s%s:%n", Counted.of(r.differences().size(), "difference"),
                Counted.of(r.entriesDiffering(), "entry"),
                n.onlyBelow() == 0 ? "" : " (and " + Counted.of(n.onlyBelow(), "entry") + " below directories only one side has)"));
        for (Map.Entry<Difference.Kind, Long> k : r.byKind().entrySet())
            out.append(String.format(Locale.ROOT, "  %-20s %,d%n", k.getKey().word(), k.getValue()));
        if (!r.failures().isEmpty())
            out.append(Counted.of(r.failures().size(), "entry") + " could not be compared\n");
        return out.toString();
    }
}

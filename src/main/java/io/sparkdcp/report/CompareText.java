package io.sparkdcp.report;

import io.sparkdcp.copy.Difference;

import java.util.Locale;
import java.util.Map;

/** The compare command's summary on stdout: what was compared, then the differences by kind. */
public final class CompareText {
    private CompareText() {}

    private static String count(long n, String noun) {
        return String.format(Locale.ROOT, "%,d %s", n, n == 1 ? noun : noun.endsWith("y") ? noun.substring(0, noun.length() - 1) + "ies" : noun + "s");
    }

    public static String render(CompareReport r) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "compared %s and %s%n", r.source(), r.destination()));
        out.append(String.format(Locale.ROOT, "  entries: %,d in SRC, %,d in DST, %,d in both%n",
                r.entriesSource(), r.entriesDestination(), r.compared()));
        out.append(String.format(Locale.ROOT, "  compared: type, size, mode, owner, group, mtime (%s), device numbers, "
                        + "symlink targets, hard links, xattrs (%s)%s%s%n",
                r.timeWindowNanos() == 0 ? "to the nanosecond" : "within " + r.timeWindowNanos() + " ns",
                r.xattrPolicy(), r.projectIds() ? ", project IDs and PROJINHERIT" : "",
                r.contents() ? String.format(Locale.ROOT, ", file contents (%,d bytes on each side)", r.bytesCompared())
                        : "; file contents not read (--contents reads them)"));
        if (r.differences().isEmpty()) {
            out.append(r.failures().isEmpty() ? "identical\n"
                    : String.format(Locale.ROOT, "no differences found, but %,d entries could not be compared%n", r.failures().size()));
            return out.toString();
        }
        out.append(String.format(Locale.ROOT, "%s in %s%s:%n", count(r.differences().size(), "difference"),
                count(r.entriesDiffering(), "entry"),
                r.onlyBelow() == 0 ? "" : String.format(Locale.ROOT, " (and %,d entries below directories only one side has)", r.onlyBelow())));
        for (Map.Entry<Difference.Kind, Long> k : r.byKind().entrySet())
            out.append(String.format(Locale.ROOT, "  %-20s %,d%n", k.getKey().word(), k.getValue()));
        if (!r.failures().isEmpty())
            out.append(String.format(Locale.ROOT, "%,d entries could not be compared%n", r.failures().size()));
        return out.toString();
    }
}

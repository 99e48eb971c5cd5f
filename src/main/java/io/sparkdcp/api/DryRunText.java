package io.sparkdcp.api;

import io.sparkdcp.job.SyncPreview;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.walk.Entry;

import java.util.List;
import java.util.Locale;

/** The dry run's plan: one line per action, then totals. */
final class DryRunText {
    private DryRunText() {}

    static String render(SyncPreview p) {
        StringBuilder out = new StringBuilder();
        lines(out, "copy", p.copy());
        lines(out, "fix metadata", p.fixMetadata());
        lines(out, "delete", p.delete());
        for (Failure f : p.refused()) out.append("refuse: ").append(f.path()).append(": ").append(f.message()).append('\n');
        out.append(String.format(Locale.ROOT, "dry run: would copy %,d, fix metadata of %,d, delete %,d; %,d unchanged%s%s%s; "
                        + "nothing was changed%n", p.copy().size(), p.fixMetadata().size(), p.delete().size(), p.unchanged(),
                p.keptNewer().isEmpty() ? "" : String.format(Locale.ROOT, "; %,d kept, newer at DST", p.keptNewer().size()),
                p.refused().isEmpty() ? "" : String.format(Locale.ROOT, "; %,d refused", p.refused().size()),
                p.deletionRefused() == null ? "" : "; deletion refused: " + p.deletionRefused()));
        return out.toString();
    }

    private static void lines(StringBuilder out, String action, List<Entry> entries) {
        for (Entry e : entries) out.append(action).append(": ").append(e.isRoot() ? "." : e.display()).append('\n');
    }
}

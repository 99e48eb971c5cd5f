package io.sparkdcp.api;

import io.sparkdcp.itemlog.ItemLine;
import io.sparkdcp.job.SyncPreview;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.walk.Entry;

import java.util.List;
import java.util.Locale;

/** The dry run's plan: one line per action (an entry to fix with the kinds, as the item log words them), then totals over all sources. */
final class DryRunText {
    private DryRunText() {}

    /** @param prefixes per preview, what its paths are shown under ("" for one source, "NAME/" for several) */
    static String render(List<SyncPreview> previews, List<String> prefixes) {
        StringBuilder out = new StringBuilder();
        long copy = 0, fix = 0, delete = 0, unchanged = 0, keptNewer = 0, refused = 0;
        String deletionRefused = null;
        for (int i = 0; i < previews.size(); i++) {
            SyncPreview p = previews.get(i);
            String prefix = prefixes.get(i);
            lines(out, "copy", p.copy(), prefix);
            for (SyncPreview.Fix f : p.fixMetadata())
                out.append("fix metadata: ").append(shown(f.entry(), prefix)).append(f.kinds().isEmpty() ? "" : ": " + ItemLine.words(f.kinds()))
                        .append('\n');
            lines(out, "delete", p.delete(), prefix);
            for (Failure f : p.refused())
                out.append("refuse: ").append(shown(f.path(), prefix)).append(": ").append(f.message()).append('\n');
            copy += p.copy().size() + p.notShown().copy();
            fix += p.fixMetadata().size() + p.notShown().fixMetadata();
            delete += p.delete().size() + p.notShown().delete();
            unchanged += p.unchanged();
            keptNewer += p.keptNewer().size() + p.notShown().keptNewer();
            refused += p.refused().size() + p.notShown().refused();
            if (deletionRefused == null) deletionRefused = p.deletionRefused();
        }
        out.append(String.format(Locale.ROOT, "dry run: would copy %,d, fix metadata of %,d, delete %,d; %,d unchanged%s%s%s; "
                        + "nothing was changed%n", copy, fix, delete, unchanged,
                keptNewer == 0 ? "" : String.format(Locale.ROOT, "; %,d kept, newer at DST", keptNewer),
                refused == 0 ? "" : String.format(Locale.ROOT, "; %,d refused", refused),
                deletionRefused == null ? "" : "; deletion refused: " + deletionRefused));
        return out.toString();
    }

    private static void lines(StringBuilder out, String action, List<Entry> entries, String prefix) {
        for (Entry e : entries) out.append(action).append(": ").append(shown(e, prefix)).append('\n');
    }

    private static String shown(Entry e, String prefix) {
        return shown(e.isRoot() ? "." : e.display(), prefix);
    }

    /** "." for the root of one source; "NAME" for the root of one of several; else the path under its prefix. */
    private static String shown(String path, String prefix) {
        if (prefix.isEmpty()) return path;
        return path.equals(".") ? prefix.substring(0, prefix.length() - 1) : prefix + path;
    }
}

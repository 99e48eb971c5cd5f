package io.sparkdcp.report;

import io.sparkdcp.copy.CopyCounts;
import io.sparkdcp.copy.keep.Keep;
import io.sparkdcp.copy.throttle.Throttle;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.progress.Iec;

import java.util.Locale;
import java.util.Map;

/**
 * The human summary printed at the end of a copy: entries by type, failures, bytes, wall time and
 * rates; with {@link Detail#steps()} where the time went step by step (step times add up over all
 * tasks, so the share column compares steps with each other, not with the wall time); with
 * {@link Detail#stats()} rsync's closing summary. Sizes in IEC units (KiB, MiB...), as rsync -h shows them.
 */
public final class ReportText {
    private ReportText() {}

    /**
     * What the summary shows beyond its counts.
     *
     * @param steps the step table ({@code -v})
     * @param stats rsync's closing summary ({@code --stats})
     */
    public record Detail(boolean steps, boolean stats) {
        public static final Detail SUMMARY = new Detail(false, false);
    }

    /** The summary without the step table. */
    public static String render(CopyReport report) {
        return render(report, Detail.SUMMARY);
    }

    public static String render(CopyReport report, Detail detail) {
        StringBuilder out = new StringBuilder();
        Keep keep = report.settings().keep();
        String command = report.settings().modes().sync() ? "sync" : "copy";
        line(out, "spark-dcp %s %s -> %s (xattrs %s, xattr access %s, project IDs %s)",
                command, report.source(), report.destination(), keep.xattrs().word(),
                keep.xattrAccess().name().toLowerCase(Locale.ROOT), keep.projectIds() ? "kept" : "not copied");
        CopyCounts c = report.counts();
        if (report.listed().ledgerUnchanged() > 0)
            line(out, "unchanged by the state ledger (not opened): %s", Counted.of(report.listed().ledgerUnchanged(), "entry"));
        long identical = c.skipped() + report.listed().ledgerUnchanged();
        boolean nothingMade = nothingMade(c, identical);
        // A re-run that finds everything in place says so, instead of a table of zeros.
        if (nothingMade) line(out, "nothing to %s: %s already identical", command, Counted.of(identical, "entry"));
        else entries(out, c);
        byType(out, "metadata fixed", c.metadataFixed(), c.metadataFixedByType());
        byType(out, "deleted", c.deleted(), c.deletedByType());
        if (c.keptNewer() > 0) line(out, "kept, newer at DST (--update): %s", Counted.of(c.keptNewer(), "file"));
        if (c.verified() > 0) line(out, "verified (CRC32C of source and copy equal): %s", Counted.of(c.verified(), "file"));
        line(out, "failed: %,d%s", c.failed(), report.listed().complete() ? "" : " (part of the source could not be listed)");
        storageTrouble(out, c);
        line(out, "bytes copied: %,d (%s)", c.bytesCopied(), Iec.bytes(c.bytesCopied()));
        double seconds = report.wallNanos() / 1e9;
        long handled = c.copied() + identical + c.metadataFixed() + c.keptNewer() + c.deleted() + c.failed();
        line(out, "wall time: %.2f s, %,.0f entries/s, %s", seconds, perSecond(handled, seconds),
                Iec.rate(perSecond(c.bytesCopied(), seconds)));
        limits(out, report);
        if (detail.steps()) {
            if (nothingMade) line(out, "nothing was made or changed: the steps below only read and compared");
            steps(out, report.steps().asMap());
        }
        if (detail.stats()) stats(out, report);
        return out.toString();
    }

    /** Nothing copied, linked, fixed, deleted or kept newer, and nothing failed: DST already was what SRC is. */
    private static boolean nothingMade(CopyCounts c, long identical) {
        return c.copied() + c.links() + c.metadataFixed() + c.deleted() + c.keptNewer() + c.failed() == 0 && identical > 0;
    }

    /**
     * rsync's closing summary, its lines by its names, from the report's own numbers. "speedup" is
     * rsync's: the total size of the files listed divided by the bytes transferred (here, file data
     * copied), so a re-run that copies a tenth of the bytes shows 10.00.
     */
    private static void stats(StringBuilder out, CopyReport report) {
        CopyCounts c = report.counts();
        double seconds = report.wallNanos() / 1e9;
        long total = report.listed().bytes();
        line(out, "");
        line(out, "Number of files: %,d", report.listed().entries());
        line(out, "Number of created files: %,d", c.copied());
        line(out, "Number of deleted files: %,d", c.deleted());
        line(out, "Number of regular files transferred: %,d", c.copied(FileType.FILE));
        line(out, "Total file size: %,d bytes (%s)", total, Iec.bytes(total));
        line(out, "Total transferred file size: %,d bytes (%s)", c.bytesCopied(), Iec.bytes(c.bytesCopied()));
        line(out, "Transfer rate: %s over %.2f s", Iec.rate(perSecond(c.bytesCopied(), seconds)), seconds);
        line(out, "total size is %,d  speedup is %s", total,
                c.bytesCopied() == 0 ? "n/a (no file data transferred)" : String.format(Locale.ROOT, "%.2f", (double) total / c.bytesCopied()));
    }

    /** The limits set, and the rates achieved over the run, when --max-ops or --bwlimit was given. */
    private static void limits(StringBuilder out, CopyReport report) {
        Throttle t = report.settings().throttle();
        if (!t.limits()) return;
        line(out, "limits: metadata calls %s (achieved %,.0f/s), data %s (achieved %s)",
                t.maxOps() > 0 ? String.format(Locale.ROOT, "%,d/s", t.maxOps()) : "unlimited", report.metadataCallsPerSecond(),
                t.bwlimit() > 0 ? Iec.rate(t.bwlimit()) : "unlimited", Iec.rate(report.bytesPerSecond()));
    }

    private static void entries(StringBuilder out, CopyCounts c) {
        line(out, "%-14s %12s %12s", "entries", "copied", "skipped");
        for (FileType t : FileType.values()) {
            if (c.copied(t) + c.skipped(t) > 0) line(out, "  %-12s %,12d %,12d", typeName(t), c.copied(t), c.skipped(t));
        }
        if (c.links() + c.linksSkipped() > 0) line(out, "  %-12s %,12d %,12d", "hard link", c.links(), c.linksSkipped());
        line(out, "  %-12s %,12d %,12d", "total", c.copied(), c.skipped());
    }

    /** One clear line per kind of storage failure, with what to do: these fail many files for one cause. */
    private static void storageTrouble(StringBuilder out, CopyCounts c) {
        long full = c.failures().stream().filter(f -> f.errno().equals("ENOSPC") || f.errno().equals("EDQUOT")).count();
        // "read" and "verify" EIOs are a source that changed, or a copy that did not match: not the devices.
        long io = c.failures().stream().filter(f -> f.errno().equals("EIO") && !f.op().equals("read") && !f.op().equals("verify")).count();
        if (full > 0) line(out, "%s failed because the destination is full (ENOSPC/EDQUOT): none of them was left "
                + "looking complete; make room and run again, complete files are skipped", Counted.of(full, "entry"));
        if (io > 0) line(out, "%s failed with I/O errors (EIO): check the devices, then run again", Counted.of(io, "entry"));
    }

    /** "metadata fixed: 3 (file 2, directory 1)", only when there were any. */
    private static void byType(StringBuilder out, String what, long total, Map<FileType, Long> counts) {
        if (total == 0) return;
        StringBuilder parts = new StringBuilder();
        counts.forEach((t, n) -> parts.append(parts.length() == 0 ? "" : ", ").append(typeName(t)).append(' ').append(n));
        line(out, "%s: %,d (%s)", what, total, parts);
    }

    private static void steps(StringBuilder out, Map<String, long[]> steps) {
        if (steps.isEmpty()) return;
        long allNanos = 0;
        for (long[] v : steps.values()) allNanos += v[1];
        line(out, "%-12s %12s %12s %10s %7s", "step", "count", "total ms", "µs/call", "share");
        for (Map.Entry<String, long[]> s : steps.entrySet()) {
            long count = s.getValue()[0];
            long nanos = s.getValue()[1];
            line(out, "%-12s %,12d %,12.1f %,10.2f %6.1f%%", s.getKey(), count, nanos / 1e6,
                    count == 0 ? 0.0 : nanos / 1e3 / count, allNanos == 0 ? 0.0 : 100.0 * nanos / allNanos);
        }
    }

    /** "char device" for CHAR_DEVICE: the words a user reads, the JSON keeps the enum's name. */
    static String typeName(FileType t) {
        return t.name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }

    private static double perSecond(double amount, double seconds) {
        return seconds <= 0 ? 0.0 : amount / seconds;
    }

    private static void line(StringBuilder out, String format, Object... args) {
        // ROOT: the same decimal point and digit grouping whatever the user's locale.
        out.append(String.format(Locale.ROOT, format, args)).append('\n');
    }
}

package io.sparkdcp.progress;

import java.util.Locale;

/**
 * One line of live progress: entries and bytes done out of the total, the rates since the copy
 * began, and the time left at those rates.
 */
public final class ProgressLine {
    private ProgressLine() {}

    /** @param elapsedNanos time since the copy phases began (the walk's time is not a copy rate) */
    public static String format(Work done, Work total, long elapsedNanos) {
        double seconds = Math.max(elapsedNanos, 1) / 1e9;
        return String.format(Locale.ROOT, "progress: %,d/%,d entries, %s/%s, %,.0f entries/s, %.1f MB/s, ETA %s",
                done.entries(), total.entries(), bytes(done.bytes()), bytes(total.bytes()),
                done.entries() / seconds, done.bytes() / seconds / 1e6, eta(done, total, seconds));
    }

    /**
     * Time left at the current pace, from the measure that is least done: entries for trees of
     * small files, bytes for a few large ones.
     */
    static String eta(Work done, Work total, double seconds) {
        double fraction = Math.min(fraction(done.entries(), total.entries()), fraction(done.bytes(), total.bytes()));
        if (fraction <= 0) return "unknown";
        long left = Math.round(seconds * (1 - fraction) / fraction);
        return String.format(Locale.ROOT, "%d:%02d:%02d", left / 3600, left / 60 % 60, left % 60);
    }

    private static double fraction(long done, long total) {
        return total <= 0 ? 1 : Math.min(1, (double) done / total);
    }

    /** Decimal units, like the report's MB/s. */
    static String bytes(long n) {
        if (n < 1_000) return n + " B";
        String units = "kMGTPE";
        int unit = (int) (Math.log10(n) / 3);
        return String.format(Locale.ROOT, "%.1f %sB", n / Math.pow(1000, unit), units.charAt(unit - 1));
    }
}

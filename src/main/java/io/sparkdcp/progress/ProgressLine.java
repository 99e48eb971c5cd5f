package io.sparkdcp.progress;

import java.util.Locale;

/**
 * One line of live progress: entries and bytes done out of the total, the rates since the totals
 * were known, and the time left at those rates.
 */
public final class ProgressLine {
    private ProgressLine() {}

    /** @param elapsedNanos time since the copy phases began (the walk's time is not a copy rate) */
    public static String format(Work done, Work total, long elapsedNanos) {
        return format(done, Work.NONE, total, elapsedNanos);
    }

    /**
     * @param before       what was done already when the clock started: a copy on threads starts while
     *                     the walk still lists, before the totals are known and the clock starts, and
     *                     the rates and the time left count only what was done since
     * @param elapsedNanos time since the clock started
     */
    public static String format(Work done, Work before, Work total, long elapsedNanos) {
        double seconds = Math.max(elapsedNanos, 1) / 1e9;
        return String.format(Locale.ROOT, "progress: %,d/%,d entries, %s/%s, %s, %,.0f entries/s, ETA %s",
                done.entries(), total.entries(), Iec.bytes(done.bytes()), Iec.bytes(total.bytes()),
                Iec.rate((done.bytes() - before.bytes()) / seconds), (done.entries() - before.entries()) / seconds,
                eta(done, before, total, seconds));
    }

    static String eta(Work done, Work total, double seconds) {
        return eta(done, Work.NONE, total, seconds);
    }

    /**
     * Time left at the pace since {@code before}, from the measure that is least done: entries for
     * trees of small files, bytes for a few large ones.
     */
    static String eta(Work done, Work before, Work total, double seconds) {
        double byEntries = fraction(done.entries(), total.entries());
        double byBytes = fraction(done.bytes(), total.bytes());
        double fraction = Math.min(byEntries, byBytes);
        double since = fraction - (byEntries <= byBytes ? fraction(before.entries(), total.entries())
                : fraction(before.bytes(), total.bytes()));
        if (fraction < 1 && since <= 0) return "unknown";
        long left = fraction >= 1 ? 0 : Math.round(seconds * (1 - fraction) / since);
        return String.format(Locale.ROOT, "%d:%02d:%02d", left / 3600, left / 60 % 60, left % 60);
    }

    private static double fraction(long done, long total) {
        return total <= 0 ? 1 : Math.min(1, (double) done / total);
    }
}

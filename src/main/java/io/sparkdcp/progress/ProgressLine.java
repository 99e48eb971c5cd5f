package io.sparkdcp.progress;

import java.util.Locale;

/**
 * One line of live progress: entries and data bytes done out of the total (the listing's, as the work done
 * has moved it: {@link Work}), the rates over a recent window, and the time left at those rates.
 */
public final class ProgressLine {
    private ProgressLine() {}

    /** A line whose window is the whole copy: the rates since nothing was done. */
    public static String format(Work done, Work listed, long elapsedNanos) {
        return format(done, Work.NONE, listed, elapsedNanos);
    }

    /**
     * @param windowStart  what was done when the window began: the rates and the time left count only what was
     *                     done since (a copy on threads starts while the walk still lists, before the totals are known)
     * @param listed       the listing's total, which {@code done}'s replanned bytes move
     * @param windowNanos  the window's length
     */
    public static String format(Work done, Work windowStart, Work listed, long windowNanos) {
        double seconds = Math.max(windowNanos, 1) / 1e9;
        Work total = listed.replannedBy(done);
        return String.format(Locale.ROOT, "progress: %,d/%,d entries, %s/%s, %s, %,.0f entries/s, ETA %s",
                done.entries(), total.entries(), Iec.bytes(done.bytes()), Iec.bytes(total.bytes()),
                Iec.rate(Math.max(0, done.bytes() - windowStart.bytes()) / seconds),
                Math.max(0, done.entries() - windowStart.entries()) / seconds,
                eta(done, windowStart, total, seconds));
    }

    static String eta(Work done, Work total, double seconds) {
        return eta(done, Work.NONE, total, seconds);
    }

    /**
     * Time left at the window's rates: for the bytes left at the window's byte rate, and for the entries left at
     * its entry rate, the longer of the two; a measure that did not move in the window has no say (a large
     * file's entry is done only at its end, while its bytes flow). Unknown when what is left did not move.
     */
    static String eta(Work done, Work windowStart, Work total, double seconds) {
        long bytesLeft = Math.max(0, total.bytes() - done.bytes());
        long entriesLeft = Math.max(0, total.entries() - done.entries());
        if (bytesLeft == 0 && entriesLeft == 0) return clock(0);
        double bytesPerSecond = (done.bytes() - windowStart.bytes()) / seconds;
        double entriesPerSecond = (done.entries() - windowStart.entries()) / seconds;
        double left = -1;
        if (bytesLeft > 0 && bytesPerSecond > 0) left = bytesLeft / bytesPerSecond;
        if (entriesLeft > 0 && entriesPerSecond > 0) left = Math.max(left, entriesLeft / entriesPerSecond);
        return left < 0 ? "unknown" : clock(Math.round(left));
    }

    private static String clock(long seconds) {
        return String.format(Locale.ROOT, "%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60);
    }
}

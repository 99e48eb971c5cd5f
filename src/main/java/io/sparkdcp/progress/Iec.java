package io.sparkdcp.progress;

import java.util.Locale;

/**
 * Sizes as people read them, in IEC units with one decimal (KiB, MiB, GiB, TiB, PiB, EiB), as
 * {@code rsync -h} and {@code numfmt --to=iec-i} show them: the report, the progress line and the
 * limits all use these, so a --bwlimit of 200M reads back as 200.0 MiB/s.
 */
public final class Iec {
    private static final String PREFIXES = "KMGTPE";

    private Iec() {}

    /** "512 B", "2.9 KiB", "1.5 GiB". */
    public static String bytes(double n) {
        if (n < 1024) return String.format(Locale.ROOT, "%.0f B", Math.max(n, 0));
        int unit = 0;
        double value = n / 1024;
        // 1023.96 KiB would round to "1024.0 KiB": the next unit then reads better.
        while (unit < PREFIXES.length() - 1 && Math.round(value * 10) >= 1024 * 10) {
            value /= 1024;
            unit++;
        }
        return String.format(Locale.ROOT, "%.1f %siB", value, PREFIXES.charAt(unit));
    }

    /** "200.0 MiB/s". */
    public static String rate(double bytesPerSecond) {
        return bytes(bytesPerSecond) + "/s";
    }
}

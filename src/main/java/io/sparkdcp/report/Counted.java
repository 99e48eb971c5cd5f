package io.sparkdcp.report;

import io.sparkdcp.progress.Iec;

import java.util.Locale;

/** A count with its noun, singular for one: "1 round", "3 rounds", "1,200 entries", "2 file batches". */
public final class Counted {
    private static final String BYTE = "byte";

    private Counted() {}

    /** Bytes (the noun "byte") read as their size from 1 KiB on, as rsync -h shows them: "5.9 KiB", "1,000 bytes". */
    public static String of(long n, String noun) {
        if (noun.equals(BYTE) && n >= 1024) return Iec.bytes(n);
        return String.format(Locale.ROOT, "%,d %s", n, n == 1 ? noun : plural(noun));
    }

    /** English plurals of the nouns the reports count (no "day"s or "children" among them). */
    static String plural(String noun) {
        if (noun.endsWith("y")) return noun.substring(0, noun.length() - 1) + "ies";
        if (noun.endsWith("ch") || noun.endsWith("sh") || noun.endsWith("s") || noun.endsWith("x")) return noun + "es";
        return noun + "s";
    }
}

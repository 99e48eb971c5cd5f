package io.sparkdcp.api;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Sizes like {@code 100}, {@code 512K}, {@code 64M}, {@code 1G}, {@code 2T}: bytes with an optional binary unit. */
public final class Sizes {
    private static final Pattern SIZE = Pattern.compile("(\\d+)([KMGT]?)");

    private Sizes() {}

    public static long parse(String value) {
        Matcher m = SIZE.matcher(value.strip().toUpperCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + value
                    + "' is not a size (expected whole bytes with an optional binary unit K, M, G or T, like 512K, 64M or 1G)");
        }
        int shift = switch (m.group(2)) {
            case "K" -> 10;
            case "M" -> 20;
            case "G" -> 30;
            case "T" -> 40;
            default -> 0;
        };
        try {
            long number = Long.parseLong(m.group(1));
            if (number > (Long.MAX_VALUE >> shift)) throw new NumberFormatException();
            return number << shift;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + value + "' is too large");
        }
    }
}

package io.sparkdcp.copy.keep;

import java.util.Locale;

/** --lustre-layout: what striping a new file or directory gets on a Lustre destination. */
public enum LustreLayout {
    /** The destination directory's default layout, as any new file there (no call made). */
    INHERIT,
    /** The source's layout without OST indexes: stripe count and size, pattern, pool, PFL components. */
    KEEP,
    /** The source's layout as it is, OST indexes included. */
    EXACT;

    /** inherit, keep or exact. */
    public static LustreLayout parse(String word) {
        for (LustreLayout l : values()) if (l.word().equals(word)) return l;
        throw new IllegalArgumentException("--lustre-layout must be inherit, keep or exact, not '" + word + "'");
    }

    public String word() { return name().toLowerCase(Locale.ROOT); }
}

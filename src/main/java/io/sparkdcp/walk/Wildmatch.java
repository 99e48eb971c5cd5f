package io.sparkdcp.walk;

/**
 * rsync's wildmatch ({@code lib/wildmatch.c}) on bytes, step for step, so a pattern matches here
 * exactly where it matches in rsync: {@code *} stops at {@code /}, two or more stars cross it,
 * {@code ?} and classes never match {@code /}, and the abort codes decide, as there, when trying a
 * later start is pointless. rsync matches a list of strings joined virtually; here they are one array.
 */
final class Wildmatch {
    private static final int TRUE = 1;
    private static final int FALSE = 0;
    private static final int ABORT_ALL = -1;
    private static final int ABORT_TO_STARSTAR = -2;

    private Wildmatch() {}

    /**
     * rsync's {@code wildmatch_array}: {@code where} 0 matches the whole text, N &gt; 0 only its last N
     * slash-separated elements, and a negative one at the start or after any {@code /}.
     */
    static boolean matches(byte[] pattern, byte[] text, int where) {
        int start = 0;
        if (where > 0) {
            start = trailingElements(text, where);
            if (start < 0) return false;
        }
        int matched = dowild(pattern, 0, text, start);
        if (matched != TRUE && where < 0 && matched != ABORT_ALL) {
            for (int i = start; ; ) {
                if (i >= text.length) return false;
                if (text[i++] == '/' && (matched = dowild(pattern, 0, text, i)) != FALSE && matched != ABORT_TO_STARSTAR) break;
            }
        }
        return matched == TRUE;
    }

    /** Where the last {@code count} elements start, or -1 when the text has fewer. */
    private static int trailingElements(byte[] text, int count) {
        for (int i = text.length - 1; i >= 0; i--) {
            if (text[i] == '/' && --count == 0) return i + 1;
        }
        return count == 1 ? 0 : -1;
    }

    private static int at(byte[] a, int i) {
        return i < a.length ? a[i] & 0xff : 0;
    }

    private static int dowild(byte[] p, int pi, byte[] text, int ti) {
        for (; pi < p.length; ti++, pi++) {
            int pc = p[pi] & 0xff;
            int tc = at(text, ti);
            if (ti >= text.length && pc != '*') return ABORT_ALL;
            switch (pc) {
                case '\\' -> {
                    pc = at(p, ++pi);
                    if (tc != pc) return FALSE;
                }
                case '?' -> {
                    if (tc == '/') return FALSE;
                }
                case '*' -> {
                    boolean special = at(p, pi + 1) == '*';
                    pi++;
                    while (at(p, pi) == '*') pi++;
                    if (pi >= p.length) {
                        // Trailing ** matches everything; a trailing * only what holds no more '/'.
                        if (!special) for (int k = ti; k < text.length; k++) if (text[k] == '/') return FALSE;
                        return TRUE;
                    }
                    for (int k = ti; k < text.length; k++) {
                        int matched = dowild(p, pi, text, k);
                        if (matched != FALSE) {
                            if (!special || matched != ABORT_TO_STARSTAR) return matched;
                        } else if (!special && text[k] == '/') {
                            return ABORT_TO_STARSTAR;
                        }
                    }
                    return ABORT_ALL;
                }
                case '[' -> {
                    ClassMatch c = matchClass(p, pi, tc);
                    if (c == null) return ABORT_ALL;
                    if (!c.member() || tc == '/') return FALSE;
                    pi = c.end();
                }
                default -> {
                    if (tc != pc) return FALSE;
                }
            }
        }
        return ti >= text.length ? TRUE : FALSE;
    }

    /** A class parsed at one byte: where its {@code ]} is, and whether the byte is a member (negation applied). */
    record ClassMatch(int end, boolean member) {}

    /**
     * rsync's class loop, at {@code open}'s {@code [}: {@code ]} first is a member, {@code \\} escapes,
     * {@code a-z} is a range, {@code [:name:]} a named class. Null when the class is not closed or names
     * an unknown class: rsync's match then aborts, so the pattern matches nothing.
     */
    static ClassMatch matchClass(byte[] p, int open, int tc) {
        int pi = open + 1;
        int pc = at(p, pi);
        boolean negated = pc == '!' || pc == '^';
        if (negated) pc = at(p, ++pi);
        int prev = 0;
        boolean matched = false;
        do {
            if (pc == 0) return null;
            if (pc == '\\') {
                pc = at(p, ++pi);
                if (pc == 0) return null;
                if (tc == pc) matched = true;
            } else if (pc == '-' && prev != 0 && at(p, pi + 1) != 0 && at(p, pi + 1) != ']') {
                pc = at(p, ++pi);
                if (pc == '\\') {
                    pc = at(p, ++pi);
                    if (pc == 0) return null;
                }
                if (tc <= pc && tc >= prev) matched = true;
                pc = 0; // a range's end starts no range
            } else if (pc == '[' && at(p, pi + 1) == ':') {
                int s = pi + 2;
                int close = s;
                while (at(p, close) != 0 && at(p, close) != ']') close++;
                if (at(p, close) == 0) return null;
                if (close - s - 1 < 0 || p[close - 1] != ':') {
                    if (tc == '[') matched = true; // no ":]": the '[' is a plain member
                } else {
                    NamedClass named = NamedClass.of(p, s, close - 1);
                    if (named == null) return null;
                    if (named.has(tc)) matched = true;
                    pi = close;
                    pc = 0;
                }
            } else if (tc == pc) {
                matched = true;
            }
            prev = pc;
            pc = at(p, ++pi);
        } while (pc != ']');
        return new ClassMatch(pi, matched != negated);
    }

    /** rsync's named classes, ASCII only (isalpha and friends in the C locale). */
    private enum NamedClass {
        ALNUM, ALPHA, BLANK, CNTRL, DIGIT, GRAPH, LOWER, PRINT, PUNCT, SPACE, UPPER, XDIGIT;

        static NamedClass of(byte[] p, int from, int to) {
            String name = new String(p, from, to - from, java.nio.charset.StandardCharsets.ISO_8859_1);
            for (NamedClass c : values()) if (c.name().toLowerCase(java.util.Locale.ROOT).equals(name)) return c;
            return null;
        }

        boolean has(int c) {
            boolean upper = c >= 'A' && c <= 'Z';
            boolean lower = c >= 'a' && c <= 'z';
            boolean digit = c >= '0' && c <= '9';
            boolean graph = c > 0x20 && c < 0x7f;
            return switch (this) {
                case ALNUM -> upper || lower || digit;
                case ALPHA -> upper || lower;
                case BLANK -> c == ' ' || c == '\t';
                case CNTRL -> c < 0x20 || c == 0x7f;
                case DIGIT -> digit;
                case GRAPH -> graph;
                case LOWER -> lower;
                case PRINT -> graph || c == ' ';
                case PUNCT -> graph && !(upper || lower || digit);
                case SPACE -> c == ' ' || (c >= '\t' && c <= '\r');
                case UPPER -> upper;
                case XDIGIT -> digit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
            };
        }
    }
}

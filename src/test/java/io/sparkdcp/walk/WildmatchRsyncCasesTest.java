package io.sparkdcp.walk;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * rsync's own wildmatch cases, run against the port: src/test/resources/rsync/wildtest.txt is rsync's
 * wildtest.txt byte for byte (github.com/RsyncProject/rsync at 7c20b077, 2026-08-20), read as rsync's
 * wildtest.c reads it (two flags, then text and pattern, each bare or quoted with ' " or `), each line
 * matched as wildtest.c matches it: {@code wildmatch(pattern, text)}, the whole text.
 */
@Tag("fast")
class WildmatchRsyncCasesTest {
    private static final String CASES = "/rsync/wildtest.txt";

    @ParameterizedTest(name = "line {0}: {3} against {2} -> {1}")
    @MethodSource("cases")
    void matchesAsRsyncDoes(int line, boolean match, String text, String pattern, byte[] textBytes, byte[] patternBytes) {
        assertEquals(match, Wildmatch.matches(patternBytes, textBytes, 0), "line " + line + " of rsync's wildtest.txt");
    }

    @Test
    void everyCaseOfTheFileIsRead() {
        assertTrue(cases().size() > 140, "rsync's wildtest.txt holds over 140 cases: " + cases().size());
    }

    /** Each named class holds exactly its members in the C locale (POSIX's lists) but '/', every other byte not, 0x80-0xff none. */
    @ParameterizedTest(name = "[:{0}:]")
    @org.junit.jupiter.params.provider.CsvSource(delimiter = '|', quoteCharacter = '\u0000', textBlock = """
            alnum  | 0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz
            alpha  | ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz
            digit  | 0123456789
            lower  | abcdefghijklmnopqrstuvwxyz
            upper  | ABCDEFGHIJKLMNOPQRSTUVWXYZ
            xdigit | 0123456789ABCDEFabcdef
            """)
    void aNamedClassHoldsItsCLocaleMembers(String name, String members) {
        assertClassHolds(name, members);
    }

    @Test
    void theClassesOfSpacesControlsAndPunctuationHoldTheirMembers() {
        StringBuilder cntrl = new StringBuilder();
        for (char c = 0; c < 0x20; c++) cntrl.append(c);
        cntrl.append((char) 0x7f);
        StringBuilder graph = new StringBuilder();
        for (char c = 0x21; c < 0x7f; c++) graph.append(c);
        assertClassHolds("blank", " \t");
        assertClassHolds("space", " \t\n\u000b\f\r");
        assertClassHolds("cntrl", cntrl.toString());
        assertClassHolds("graph", graph.toString());
        assertClassHolds("print", " " + graph);
        assertClassHolds("punct", "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~");
    }

    private static void assertClassHolds(String name, String members) {
        byte[] pattern = ("[[:" + name + ":]]").getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        for (int b = 1; b < 256; b++) {
            boolean member = b < 0x80 && b != '/' && members.indexOf((char) b) >= 0; // no class matches '/', as in rsync
            assertEquals(member, Wildmatch.matches(pattern, new byte[] {(byte) b}, 0), String.format("[:%s:] and 0x%02x", name, b));
        }
    }

    /** rsync's wildmatch_array: where N > 0 matches the last N elements only, a negative where at any element's start. */
    @ParameterizedTest(name = "{0} against {1}, where {2} -> {3}")
    @org.junit.jupiter.params.provider.CsvSource({
            "b/c, a/b/c, 2, true", "a/b/c, a/b/c, 2, false", "b/c, b/c, 2, true", "c, a/b/c, 1, true", "b/c, a/b/c, 1, false",
            "x/b/c, b/c, 3, false", "a/b/c, a/b/c, 3, true", "b*, a/bc, -1, true", "b*, abc, -1, false", "bc, a/bc, -1, true",
            "a/b, a/b, -1, true", "b/c, a/b/c, -1, true", "a/b*, x/a/b/c, -1, false", "**/c, a/b/c, -1, true", "a*, abc, 0, true",
            "c, abc/, -1, false"})
    void partsOfThePathAsRsyncMatchesThem(String pattern, String text, int where, boolean match) {
        assertEquals(match, Wildmatch.matches(pattern.getBytes(java.nio.charset.StandardCharsets.US_ASCII),
                text.getBytes(java.nio.charset.StandardCharsets.US_ASCII), where));
    }

    static List<Arguments> cases() {
        byte[] file;
        try (InputStream in = WildmatchRsyncCasesTest.class.getResourceAsStream(CASES)) {
            file = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Arguments> out = new ArrayList<>();
        int line = 0;
        for (int start = 0; start < file.length; ) {
            int end = start;
            while (end < file.length && file[end] != '\n') end++;
            line++;
            if (end > start && file[start] != '#') out.add(parse(line, java.util.Arrays.copyOfRange(file, start, end)));
            start = end + 1;
        }
        return out;
    }

    /** wildtest.c's reading of one line: flag, flag, then two strings separated by spaces or tabs. */
    private static Arguments parse(int line, byte[] b) {
        boolean match = b[0] == '1';
        if ((b[0] != '0' && b[0] != '1') || (b[2] != '0' && b[2] != '1')) throw new IllegalArgumentException("flags on line " + line);
        int[] at = {skipBlanks(b, 3)};
        byte[] text = word(b, at, line);
        byte[] pattern = word(b, at, line);
        return Arguments.of(line, match, shown(text), shown(pattern), text, pattern);
    }

    private static byte[] word(byte[] b, int[] at, int line) {
        int s = at[0];
        if (s >= b.length) throw new IllegalArgumentException("not enough strings on line " + line);
        int from, to;
        if (b[s] == '\'' || b[s] == '"' || b[s] == '`') {
            from = s + 1;
            to = from;
            while (to < b.length && b[to] != b[s]) to++;
            if (to >= b.length) throw new IllegalArgumentException("unmatched quote on line " + line);
            at[0] = skipBlanks(b, to + 1);
        } else {
            from = s;
            to = s + 1;
            while (to < b.length && b[to] != ' ' && b[to] != '\t') to++;
            at[0] = skipBlanks(b, to);
        }
        return java.util.Arrays.copyOfRange(b, from, to);
    }

    private static int skipBlanks(byte[] b, int i) {
        while (i < b.length && (b[i] == ' ' || b[i] == '\t')) i++;
        return i;
    }

    private static String shown(byte[] bytes) {
        StringBuilder s = new StringBuilder();
        for (byte x : bytes) s.append(x >= 0x20 && x < 0x7f ? String.valueOf((char) x) : String.format("\\x%02x", x & 0xff));
        return s.toString();
    }
}

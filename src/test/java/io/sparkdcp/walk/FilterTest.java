package io.sparkdcp.walk;

import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Stat;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** rsync's include/exclude rules for the common cases, and --files-from, on byte paths. */
@Tag("fast")
class FilterTest {

    /** One exclude pattern against a path (f: a file, d: a directory): is the entry still listed? */
    @ParameterizedTest(name = "{0} against {1} ({2})")
    @CsvSource(delimiter = '|', textBlock = """
            # pattern       | path                | type | listed
            *.tmp           | a.tmp               | f    | false
            *.tmp           | dir/sub/a.tmp       | f    | false
            *.tmp           | a.tmp.keep          | f    | true
            .snapshot       | .snapshot           | d    | false
            .snapshot       | x/y/.snapshot       | d    | false
            .snapshot       | x/.snapshots        | d    | true
            /top            | top                 | d    | false
            /top            | x/top               | d    | true
            scratch/        | scratch             | d    | false
            scratch/        | scratch             | f    | true
            scratch/        | a/scratch           | d    | false
            a/*.c           | a/x.c               | f    | false
            a/*.c           | z/a/x.c             | f    | false
            a/*.c           | za/x.c              | f    | true
            a/*.c           | a/b/x.c             | f    | true
            /a/**.c         | a/b/c/x.c           | f    | false
            /a/**.c         | b/a/x.c             | f    | true
            **/cache        | p/q/cache           | d    | false
            file?.log       | file1.log           | f    | false
            file?.log       | file12.log          | f    | true
            [ab]*.dat       | b1.dat              | f    | false
            [ab]*.dat       | c1.dat              | f    | true
            [!ab]*.dat      | c1.dat              | f    | false
            [a-c]x          | bx                  | f    | false
            [a-c]x          | dx                  | f    | true
            # rsync's own examples and forms (rsync.1 PATTERN MATCHING RULES), as rsync 3 matches them
            keep/***        | keep                | d    | false
            keep/***        | keep/a/b            | f    | false
            keep/***        | keep                | f    | true
            keep/***        | x/keep              | d    | false
            /keep/***       | x/keep              | d    | true
            keep/***/       | keep/a              | f    | true
            foo/*/bar       | foo/x/bar           | f    | false
            foo/*/bar       | a/foo/x/bar         | f    | false
            foo/*/bar       | foo/x/y/bar         | f    | true
            /foo/**/bar     | foo/bar             | f    | true
            /foo/**/bar     | foo/x/bar           | f    | false
            /foo/**/bar     | foo/x/y/bar         | f    | false
            **/cache        | cache               | d    | false
            a/**            | a                   | d    | true
            a/**            | a/x/y               | f    | false
            a/**/b          | a/b                 | f    | true
            **              | a                   | f    | false
            *               | a/b                 | f    | false
            a*/             | ab                  | d    | false
            a*/             | ab                  | f    | true
            a/b             | x/a/b               | f    | false
            a/b             | xa/b                | f    | true
            /a/b            | x/a/b               | f    | true
            */b             | x/a/b               | f    | false
            foo\\bar         | foo\\bar             | f    | false
            foo\\bar*        | foobar1             | f    | false
            foo\\\\bar*       | foo\\bar1            | f    | false
            \\*              | *                   | f    | false
            \\*              | a                   | f    | true
            []a]            | ]                   | f    | false
            [!a]b           | ab                  | f    | true
            [^a]b           | cb                  | f    | false
            [[:digit:]]*    | 9x                  | f    | false
            [[:digit:]]*    | x9                  | f    | true
            [a-]            | -                   | f    | false
            'x y'           | x y                 | f    | false
            '*.o '          | b.o                 | f    | true
            trailing\\       | trailing\\           | f    | false
            """)
    void anExcludePattern(String pattern, String path, String type, boolean listed) {
        Filter f = Filter.NONE.with(Filter.Rule.of(false, PathBytes.of(pattern)));
        assertEquals(listed, f.lists(PathBytes.of(path), type.equals("d")));
    }

    @Test
    void theFirstMatchingRuleWins() {
        Filter keepImportant = Filter.NONE.with(Filter.Rule.of(true, PathBytes.of("important.tmp")))
                .with(Filter.Rule.of(false, PathBytes.of("*.tmp")));
        Filter excludeFirst = Filter.NONE.with(Filter.Rule.of(false, PathBytes.of("*.tmp")))
                .with(Filter.Rule.of(true, PathBytes.of("important.tmp")));
        assertAll(
                () -> assertTrue(keepImportant.lists(PathBytes.of("d/important.tmp"), false)),
                () -> assertFalse(keepImportant.lists(PathBytes.of("d/other.tmp"), false)),
                () -> assertFalse(excludeFirst.lists(PathBytes.of("d/important.tmp"), false)),
                () -> assertTrue(excludeFirst.lists(PathBytes.of("d/other.dat"), false), "no rule matches: listed"));
    }

    @Test
    void patternsAndPathsAreBytes() {
        byte[] latin1 = {'c', 'a', 'f', (byte) 0xe9};
        byte[] pattern = {'*', (byte) 0xe9};
        Filter f = Filter.NONE.with(Filter.Rule.of(false, pattern));
        assertFalse(f.lists(PathBytes.join(PathBytes.of("x"), latin1), false));
        assertTrue(f.lists(PathBytes.of("cafe"), false));
        // A class of high bytes, as unsigned values.
        Filter range = Filter.NONE.with(Filter.Rule.of(false, new byte[]{'[', (byte) 0xe0, '-', (byte) 0xff, ']'}));
        assertFalse(range.lists(new byte[]{(byte) 0xe9}, false));
        assertTrue(range.lists(new byte[]{'e'}, false));
    }

    @Test
    void badPatternsAreRefusedWithTheirText() {
        IllegalArgumentException unclosed = assertThrows(IllegalArgumentException.class,
                () -> Filter.Rule.of(false, PathBytes.of("data[0-9")));
        assertTrue(unclosed.getMessage().contains("'data[0-9'"), unclosed.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Filter.Rule.of(false, PathBytes.of("")));
        assertThrows(IllegalArgumentException.class, () -> Filter.Rule.of(false, PathBytes.of("/")));
        assertThrows(IllegalArgumentException.class, () -> Filter.Rule.of(false, PathBytes.of("//")));
        assertThrows(IllegalArgumentException.class, () -> Filter.Rule.of(false, PathBytes.of("*trailing\\")),
                "a lone \\ ends a wildcard pattern: rsync's wildmatch never matches it");
        IllegalArgumentException named = assertThrows(IllegalArgumentException.class, () -> Filter.Rule.of(false, PathBytes.of("[[:word:]]")));
        assertTrue(named.getMessage().contains("[:name:]"), named.getMessage());
    }

    /** Each refusal says why no name can match: the user sees which rule and what is wrong with it. */
    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            ""         | pattern '' is empty
            /          | pattern '/' matches no name (a lone /)
            //         | pattern '//' matches no name (a lone /)
            *x\\      | pattern '*x\\\\' ends with a lone '\\'
            a[b        | pattern 'a[b' has a '[' class without its ']' or with an unknown [:name:]
            """)
    void aRefusalSaysWhyNoNameMatches(String pattern, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Filter.Rule.of(false, PathBytes.of(pattern)));
        assertEquals(message, e.getMessage());
    }

    @Test
    void aPatternWithANulByteIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Filter.Rule.of(false, new byte[] {'a', 0, 'b'}));
        assertTrue(e.getMessage().endsWith("holds a NUL byte"), e.getMessage());
    }

    /** A wildcard as the first byte makes a pattern wild as well as one later; ** without a slash matches after any slash. */
    @Test
    void wildcardsAtThePatternsStartAndStarsAfterAnySlash() {
        assertAll(
                () -> assertTrue(Filter.Rule.of(false, PathBytes.of("?x")).matches(PathBytes.of("d/ax"), false)),
                () -> assertTrue(Filter.Rule.of(false, PathBytes.of("[ab]x")).matches(PathBytes.of("bx"), false)),
                () -> assertFalse(Filter.Rule.of(false, PathBytes.of("[ab]x")).matches(PathBytes.of("cx"), false)),
                () -> assertTrue(Filter.Rule.of(false, PathBytes.of("*x")).matches(PathBytes.of("d/abx"), false)),
                () -> assertTrue(Filter.Rule.of(false, PathBytes.of("a**")).matches(PathBytes.of("x/ab/c"), false), "a** from the name ab on"),
                () -> assertFalse(Filter.Rule.of(false, PathBytes.of("a**")).matches(PathBytes.of("x/b/c"), false)),
                () -> assertTrue(Filter.Rule.of(false, PathBytes.of("/a**")).matches(PathBytes.of("ab/c"), false)),
                () -> assertFalse(Filter.Rule.of(false, PathBytes.of("/a**")).matches(PathBytes.of("x/ab/c"), false), "anchored"));
    }

    /** One --exclude (false) or --include (true) argument after another: is the entry listed? */
    private static boolean listedAfter(String path, boolean directory, Object... includeThenText) {
        Filter f = Filter.NONE;
        for (int i = 0; i < includeThenText.length; i += 2)
            f = RuleText.apply(f, (Boolean) includeThenText[i], PathBytes.of((String) includeThenText[i + 1]));
        return f.lists(PathBytes.of(path), directory);
    }

    @Test
    void ruleTextTakesRsyncsPrefixesAndTheListClearingRule() {
        assertAll(
                () -> assertTrue(listedAfter("keep/a", false, true, "keep/***", false, "*"), "rsync's idiom: a directory and all it holds"),
                () -> assertFalse(listedAfter("other", true, true, "keep/***", false, "*")),
                () -> assertTrue(listedAfter("a.o", false, false, "+ *.o", false, "*"), "'+ ' in an --exclude includes"),
                () -> assertFalse(listedAfter("a.o", false, true, "- *.o"), "'- ' in an --include excludes"),
                () -> assertTrue(listedAfter("a.o", false, false, "*.o", true, "!"), "'!' clears the rules so far"),
                () -> assertFalse(listedAfter("a.o", false, false, "*.x", true, "!", false, "*.o")),
                () -> assertFalse(listedAfter("!x", false, false, "!x"), "'!' with more is a pattern"),
                () -> assertFalse(listedAfter("- a", false, false, "- - a"), "only one prefix"));
    }

    @Test
    void rsyncsOtherFilterRuleFormsAreRefusedNamingTheForm() {
        String[][] refused = {{"-! *.o", "modifiers '!'"}, {"+s keep", "modifiers 's'"}, {"-/ /etc", "modifiers '/'"},
                {". rules.txt", "merge"}, {": .rsync-filter", "merge"}, {"dir-merge .f", "merge"}, {"hide *.o", "hide"},
                {"P keep", "protect"}, {"- ", "no pattern"}, {"", "empty"}, {"a[b", "'['"}};
        for (String[] r : refused) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> RuleText.apply(Filter.NONE, false, PathBytes.of(r[0])), r[0]);
            assertTrue(e.getMessage().contains(r[1]), r[0] + ": " + e.getMessage());
        }
        // Forms rsync takes as names here: a file named "include" or "._x", a pattern "-_a".
        for (String name : new String[]{"include", "._*", "-_a", "clear", "P"})
            assertFalse(listedAfter(name, false, false, name), name);
    }

    @Test
    void ruleFilesSplitLinesAndSkipCommentsAndBlankLines() {
        List<byte[]> lines = RuleText.fileLines(PathBytes.of("+ keep/***\r\n# comment\n; comment\n\n - x\r- *\n"));
        assertEquals(List.of("+ keep/***", " - x", "- *"), lines.stream().map(PathBytes::display).toList());
    }

    @Test
    void filesFromListsThePathsTheirParentsAndWhatListedDirectoriesHold() {
        Filter f = Filter.NONE.listing(List.of(PathBytes.of("a/b/file"), PathBytes.of("keep")));
        assertAll(
                () -> assertTrue(f.lists(PathBytes.of("a"), true), "a directory above a listed path"),
                () -> assertTrue(f.lists(PathBytes.of("a/b"), true)),
                () -> assertTrue(f.lists(PathBytes.of("a/b/file"), false)),
                () -> assertFalse(f.lists(PathBytes.of("a/b/other"), false)),
                () -> assertFalse(f.lists(PathBytes.of("a/c"), true), "a directory beside"),
                () -> assertFalse(f.lists(PathBytes.of("a"), false), "a file named as a directory above is not above"),
                () -> assertTrue(f.lists(PathBytes.of("keep"), true)),
                () -> assertTrue(f.lists(PathBytes.of("keep/deep/x"), false), "inside a listed directory"),
                () -> assertFalse(f.lists(PathBytes.of("keeper"), false)));
        Filter withRule = f.with(Filter.Rule.of(false, PathBytes.of("*.o")));
        assertFalse(withRule.lists(PathBytes.of("keep/x.o"), false), "rules apply to listed paths too");
    }

    /** rsync says which --files-from paths it did not find; a sync must not delete as if SRC lacked them. */
    @Test
    void missingNamesTheListedPathsTheWalkDidNotFindAndTheRulesKeep() {
        Filter f = Filter.NONE.with(Filter.Rule.of(false, PathBytes.of("*.o"))).with(Filter.Rule.of(false, PathBytes.of("skip/")))
                .listing(List.of(PathBytes.of("a/b/file"), PathBytes.of("a/b/gone"), PathBytes.of("keep"), PathBytes.of("lost"),
                        PathBytes.of("a/x.o"), PathBytes.of("skip/inside"), PathBytes.of("keep/deep/gone")));
        Listing found = Listing.of(List.of(entry("", FileType.DIRECTORY), entry("a", FileType.DIRECTORY), entry("a/b", FileType.DIRECTORY),
                entry("a/b/file", FileType.FILE), entry("keep", FileType.DIRECTORY), entry("keep/deep", FileType.DIRECTORY),
                entry("lost2", FileType.FILE)), List.of());
        List<Failure> missing = f.missing(found);
        assertEquals(List.of("a/b/gone", "keep/deep/gone", "lost"), missing.stream().map(Failure::path).toList(),
                "what the rules leave out, or a directory above, is not missing; the rest comes sorted");
        assertAll(missing.stream().map(m -> () -> {
            assertEquals("files-from", m.op());
            assertEquals("ENOENT", m.errno());
            assertEquals("listed in --files-from, not found in SRC", m.message());
        }));
        assertEquals(List.of(), Filter.NONE.with(Filter.Rule.of(false, PathBytes.of("*.o"))).missing(found), "no --files-from, nothing missing");
        assertEquals(List.of(), Filter.NONE.listing(List.of(PathBytes.of("a/b"), PathBytes.of("a/b/file"))).missing(found));
    }

    private static Entry entry(String path, FileType type) {
        return new Entry(PathBytes.of(path), Stat.of(type).permissions(0644).nlink(1).build(), null);
    }

    @Test
    void listedPathsAreMadeRelativeToSrc() {
        assertArrayEquals(PathBytes.of("a/b"), Filter.listedPath(PathBytes.of("/a//b/")));
        assertArrayEquals(PathBytes.of("a/b"), Filter.listedPath(PathBytes.of("./a/./b")));
        assertNull(Filter.listedPath(PathBytes.of(".")), "SRC itself");
        IllegalArgumentException up = assertThrows(IllegalArgumentException.class, () -> Filter.listedPath(PathBytes.of("a/../../etc")));
        assertTrue(up.getMessage().contains("leaves SRC"), up.getMessage());
    }

    @Test
    void aFilterTravelsToTheExecutors() throws Exception {
        Filter f = Filter.NONE.with(Filter.Rule.of(false, PathBytes.of("*.tmp"))).listing(List.of(PathBytes.of("a")));
        assertTrue(f.lists(PathBytes.of("a/x"), false)); // builds the sets, which are not shipped
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(bytes)) {
            out.writeObject(f);
        }
        Filter back;
        try (java.io.ObjectInputStream in = new java.io.ObjectInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray()))) {
            back = (Filter) in.readObject();
        }
        assertTrue(back.lists(PathBytes.of("a/x"), false));
        assertFalse(back.lists(PathBytes.of("a/x.tmp"), false));
        assertFalse(back.lists(PathBytes.of("b"), false));
    }
}

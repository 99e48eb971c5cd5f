package io.sparkdcp.walk;

import io.sparkdcp.posix.PathBytes;
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
        assertThrows(IllegalArgumentException.class, () -> Filter.Rule.of(false, PathBytes.of("trailing\\")));
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

package io.sparkdcp.plan;

import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Stat;
import io.sparkdcp.walk.Entry;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** What sync --delete removes, and in which order. */
@Tag("fast")
class DeletionPlannerTest {
    private static Entry entry(String path, FileType type) {
        return new Entry(PathBytes.of(path), new Stat(type, 0755, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0), null);
    }

    private static List<List<String>> paths(List<List<Entry>> levels) {
        return levels.stream().map(l -> l.stream().map(Entry::display).toList()).toList();
    }

    @Test
    void extrasGoDeepestFirstAndTheRootNever() {
        List<Entry> source = List.of(entry("", FileType.DIRECTORY), entry("a", FileType.DIRECTORY), entry("a/kept", FileType.FILE));
        List<Entry> destination = List.of(entry("", FileType.DIRECTORY), entry("a", FileType.DIRECTORY), entry("a/kept", FileType.FILE),
                entry("x", FileType.DIRECTORY), entry("x/y", FileType.DIRECTORY), entry("x/y/z", FileType.FILE),
                entry("a/stray", FileType.SYMLINK));
        assertEquals(List.of(List.of("x/y/z"), List.of("a/stray", "x/y"), List.of("x")),
                paths(DeletionPlanner.deepestFirst(source, destination)));
    }

    @Test
    void aDirectoryAgainstANonDirectoryIsRemovedEitherWay() {
        List<Entry> source = List.of(entry("f", FileType.FILE), entry("d", FileType.DIRECTORY), entry("s", FileType.SYMLINK));
        List<Entry> destination = List.of(entry("f", FileType.DIRECTORY), entry("f/inner", FileType.FILE),
                entry("d", FileType.FILE), entry("s", FileType.FILE));
        assertEquals(List.of(List.of("f/inner"), List.of("d", "f")), paths(DeletionPlanner.deepestFirst(source, destination)));
    }

    @Test
    void identicalTreesDeleteNothing() {
        List<Entry> tree = List.of(entry("", FileType.DIRECTORY), entry("a", FileType.FILE));
        assertEquals(List.of(), DeletionPlanner.deepestFirst(tree, tree));
    }
}

package io.sparkdcp.plan;

import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Stat;
import io.sparkdcp.walk.DirectoryBlock;
import io.sparkdcp.walk.Entry;
import io.sparkdcp.walk.Listing;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** What sync --delete removes, and in which order. */
@Tag("fast")
class DeletionPlannerTest {
    private static Entry entry(String path, FileType type) {
        return new Entry(PathBytes.of(path), Stat.of(type).permissions(0755).nlink(1).build(), null);
    }

    /** {@link DeletionPlanner#extraneous} over two whole listings, by depth, deepest first. */
    private static List<List<Entry>> deepestFirst(List<Entry> source, List<Entry> destination) {
        Map<ByteBuffer, DirectoryBlock> sourceDirectories = new HashMap<>();
        for (DirectoryBlock b : Listing.of(source, List.of()).blocks()) sourceDirectories.put(ByteBuffer.wrap(b.path()), b);
        TreeMap<Integer, List<Entry>> byDepth = new TreeMap<>();
        for (DirectoryBlock d : Listing.of(destination, List.of()).blocks())
            DeletionPlanner.extraneous(d, sourceDirectories.get(ByteBuffer.wrap(d.path())),
                    e -> byDepth.computeIfAbsent(PathBytes.depth(e.path()), k -> new ArrayList<>()).add(e));
        return new ArrayList<>(byDepth.descendingMap().values());
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
                paths(deepestFirst(source, destination)));
    }

    @Test
    void aDirectoryAgainstANonDirectoryIsRemovedEitherWay() {
        List<Entry> source = List.of(entry("f", FileType.FILE), entry("d", FileType.DIRECTORY), entry("s", FileType.SYMLINK));
        List<Entry> destination = List.of(entry("f", FileType.DIRECTORY), entry("f/inner", FileType.FILE),
                entry("d", FileType.FILE), entry("s", FileType.FILE));
        assertEquals(List.of(List.of("f/inner"), List.of("d", "f")), paths(deepestFirst(source, destination)));
    }

    @Test
    void identicalTreesDeleteNothing() {
        List<Entry> tree = List.of(entry("", FileType.DIRECTORY), entry("a", FileType.FILE));
        assertEquals(List.of(), deepestFirst(tree, tree));
    }
}

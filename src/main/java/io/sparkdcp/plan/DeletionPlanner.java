package io.sparkdcp.plan;

import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.walk.DirectoryBlock;
import io.sparkdcp.walk.Entry;
import io.sparkdcp.walk.Listing;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What {@code sync --delete} removes: every destination entry whose path the source does not have,
 * and every one where one side has a directory and the other not (the copy cannot replace those in
 * place). Grouped by depth, deepest first, so a directory is removed after its children.
 *
 * <p>The listings are compared directory by directory: only one directory's names are decoded at a
 * time, so a sync of a huge tree holds no object per entry.
 */
public final class DeletionPlanner {
    private DeletionPlanner() {}

    /** Compares listings given as objects (tests). */
    public static List<List<Entry>> deepestFirst(List<Entry> source, List<Entry> destination) {
        return deepestFirst(Listing.of(source, List.of()), Listing.of(destination, List.of()));
    }

    public static List<List<Entry>> deepestFirst(Listing source, Listing destination) {
        Map<ByteBuffer, DirectoryBlock> sourceDirectories = new HashMap<>();
        for (DirectoryBlock b : source.blocks()) sourceDirectories.put(ByteBuffer.wrap(b.path()), b);
        TreeMap<Integer, List<Entry>> byDepth = new TreeMap<>();
        for (DirectoryBlock d : destination.blocks())
            extraneous(d, sourceDirectories.get(ByteBuffer.wrap(d.path())), e -> add(byDepth, e));
        return new ArrayList<>(byDepth.descendingMap().values());
    }

    /**
     * The rule for one destination directory, given the source's block of the same path or null:
     * what of it the source lacks. The executors apply it to the two listings grouped by directory.
     */
    public static void extraneous(DirectoryBlock destination, DirectoryBlock sourceOrNull, java.util.function.Consumer<Entry> out) {
        Entry dir = destination.directory();
        // No block here: the source has no directory at this path (nothing, or a non-directory).
        if (dir != null && !dir.isRoot() && sourceOrNull == null) out.accept(dir);
        Map<ByteBuffer, FileType> sourceFiles = new HashMap<>();
        if (sourceOrNull != null) for (Entry f : sourceOrNull.files()) sourceFiles.put(ByteBuffer.wrap(f.name()), f.type());
        // A name the source's directory lacks among its non-directories: missing, or a directory there.
        for (Entry f : destination.files()) if (!sourceFiles.containsKey(ByteBuffer.wrap(f.name()))) out.accept(f);
    }

    private static void add(TreeMap<Integer, List<Entry>> byDepth, Entry e) {
        byDepth.computeIfAbsent(PathBytes.depth(e.path()), k -> new ArrayList<>()).add(e);
    }
}

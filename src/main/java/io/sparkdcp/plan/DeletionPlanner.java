package io.sparkdcp.plan;

import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.walk.Entry;

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
 */
public final class DeletionPlanner {
    private DeletionPlanner() {}

    public static List<List<Entry>> deepestFirst(List<Entry> source, List<Entry> destination) {
        Map<ByteBuffer, FileType> sourceTypes = new HashMap<>();
        for (Entry e : source) sourceTypes.put(ByteBuffer.wrap(e.path()), e.type());
        TreeMap<Integer, List<Entry>> byDepth = new TreeMap<>();
        for (Entry d : destination) {
            if (d.isRoot()) continue;
            FileType s = sourceTypes.get(ByteBuffer.wrap(d.path()));
            boolean extraneous = s == null || (s == FileType.DIRECTORY) != (d.type() == FileType.DIRECTORY);
            if (extraneous) byDepth.computeIfAbsent(PathBytes.depth(d.path()), k -> new ArrayList<>()).add(d);
        }
        return new ArrayList<>(byDepth.descendingMap().values());
    }
}

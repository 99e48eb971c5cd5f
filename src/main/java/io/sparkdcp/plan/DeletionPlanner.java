package io.sparkdcp.plan;

import io.sparkdcp.posix.FileType;
import io.sparkdcp.walk.DirectoryBlock;
import io.sparkdcp.walk.Entry;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

/**
 * What {@code sync --delete} removes: every destination entry whose path the source does not have,
 * and every one where one side has a directory and the other not (the copy cannot replace those in
 * place). The job deletes them by depth, deepest first, so a directory is removed after its children.
 *
 * <p>The listings are compared directory by directory: only one directory's names are decoded at a
 * time, so a sync of a huge tree holds no object per entry.
 */
public final class DeletionPlanner {
    private DeletionPlanner() {}

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
}

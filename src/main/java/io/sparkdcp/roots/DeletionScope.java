package io.sparkdcp.roots;

import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.walk.Entry;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * {@code --delete} never crosses a mount point: what lies in or at a mount point inside DST (a tmpfs,
 * another file system, a bind mount — even of SRC) is not DST's to delete. Such entries are taken out
 * of the deletion plan and each mount point is reported once. The engine's {@code Deleter} checks
 * mount IDs again when it deletes, for mounts made after this plan.
 */
public final class DeletionScope {
    private DeletionScope() {}

    public static List<List<Entry>> withoutMounts(List<List<Entry>> levels, byte[] destinationRoot, Consumer<Failure> notice) {
        List<String> mountPoints = mountPointsBelow(destinationRoot);
        if (mountPoints.isEmpty()) return levels;
        Set<String> spared = new LinkedHashSet<>();
        List<List<Entry>> kept = new ArrayList<>();
        for (List<Entry> level : levels) {
            List<Entry> keep = new ArrayList<>();
            for (Entry e : level) {
                String mountPoint = mountPointOf(e, mountPoints);
                if (mountPoint == null) keep.add(e);
                else spared.add(mountPoint);
            }
            if (!keep.isEmpty()) kept.add(keep);
        }
        for (String m : spared) notice.accept(spared(m));
        return kept;
    }

    /** The mount points inside DST, relative to it: read on the driver, small enough to ship to every task. */
    public static List<String> mountPointsBelow(byte[] destinationRoot) {
        return MountTable.read().mountPointsBelow(new String(destinationRoot, StandardCharsets.UTF_8));
    }

    /** The mount point (of {@link #mountPointsBelow}) the entry lies at or below, or null: then it is DST's to delete. */
    public static String mountPointOf(Entry e, List<String> mountPoints) {
        if (mountPoints.isEmpty()) return null;
        String path = new String(e.path(), StandardCharsets.UTF_8);
        for (String m : mountPoints) if (MountTable.below(path, m)) return m;
        return null;
    }

    /** The notice for a mount point whose entries --delete left alone. */
    public static Failure spared(String mountPoint) {
        return Failure.of(PathBytes.of(mountPoint), "delete", "a mount point inside DST: nothing in or at it is deleted");
    }
}

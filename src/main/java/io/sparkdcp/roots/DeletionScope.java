package io.sparkdcp.roots;

import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.walk.Entry;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * {@code --delete} never crosses a mount point: what lies in or at a mount point inside DST (a tmpfs,
 * another file system, a bind mount — even of SRC) is not DST's to delete. Such entries are taken out
 * of the deletion plan and each mount point is reported once. The engine's {@code Deleter} checks
 * mount IDs again when it deletes, for mounts made after this plan.
 */
public final class DeletionScope {
    private DeletionScope() {}

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

package io.sparkdcp.report;

import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.copy.compare.Difference;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.PathBytes;

import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.nio.ByteBuffer;
import java.util.Set;

/**
 * The outcome of comparing two trees: the settings it ran with, its numbers, what differs and what
 * could not be compared.
 *
 * @param settings        the engine's options the compare ran with: the roots, which xattrs were compared
 *                        (the copy's policy words), project IDs, inode flags (not --no-flags), --contents
 * @param timeWindowNanos how far apart mtimes could be and still count as equal (0: exact)
 * @param listedBy        who walked the trees: "driver" or "executors"
 * @param differences     every difference, sorted by path
 * @param failures        entries or directories that could not be read (walks and compare tasks)
 */
public record CompareReport(CopyOptions settings, long timeWindowNanos, String listedBy, Numbers numbers,
                            List<Difference> differences, List<Failure> failures, long wallNanos) {

    /**
     * @param entriesSource      entries listed in SRC, the root included
     * @param entriesDestination entries listed in DST, the root included
     * @param compared           entries both trees have, each compared
     * @param onlyBelow          entries below a directory that only one tree has: each such directory is one difference
     * @param bytesCompared      file bytes read on each side (with contents)
     */
    public record Numbers(long entriesSource, long entriesDestination, long compared, long onlyBelow, long bytesCompared) {}

    /** The source as shown to the user. */
    public String source() { return PathBytes.display(settings.sourceShown()); }

    public String destination() { return PathBytes.display(settings.destinationShown()); }

    /** Exit codes as diff(1) has them: 0 identical, 1 differences, 2 trouble (something could not be compared). */
    public static final int IDENTICAL = 0;
    public static final int DIFFERENT = 1;
    public static final int TROUBLE = 2;

    public int exitCode() {
        if (!failures.isEmpty()) return TROUBLE;
        return differences.isEmpty() ? IDENTICAL : DIFFERENT;
    }

    /** Differences by kind, in the kinds' order; kinds without any are left out. */
    public Map<Difference.Kind, Long> byKind() {
        Map<Difference.Kind, Long> out = new EnumMap<>(Difference.Kind.class);
        for (Difference d : differences) out.merge(d.kind(), 1L, Long::sum);
        return out;
    }

    /** Paths with at least one difference. */
    public long entriesDiffering() {
        Set<ByteBuffer> paths = new HashSet<>();
        for (Difference d : differences) paths.add(ByteBuffer.wrap(d.path()));
        return paths.size();
    }
}

package io.sparkdcp.report;

import io.sparkdcp.copy.compare.Difference;
import io.sparkdcp.posix.Failure;

import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.nio.ByteBuffer;
import java.util.Set;

/**
 * The outcome of comparing two trees.
 *
 * @param xattrPolicy        which xattrs were compared (the copy's policy words)
 * @param flags              whether inode flags and extent-size hints were compared (not --no-flags)
 * @param contents           whether file bytes were compared, not only sizes and mtimes
 * @param timeWindowNanos    how far apart mtimes could be and still count as equal (0: exact)
 * @param listedBy           who walked the trees: "driver" or "executors"
 * @param entriesSource      entries listed in SRC, the root included
 * @param entriesDestination entries listed in DST, the root included
 * @param compared           entries both trees have, each compared
 * @param onlyBelow          entries below a directory that only one tree has: each such directory is one difference
 * @param bytesCompared      file bytes read on each side (with contents)
 * @param differences        every difference, sorted by path
 * @param failures           entries or directories that could not be read (walks and compare tasks)
 */
public record CompareReport(String source, String destination, String xattrPolicy, boolean projectIds, boolean flags, boolean contents,
                            long timeWindowNanos, String listedBy, long entriesSource, long entriesDestination,
                            long compared, long onlyBelow, long bytesCompared, List<Difference> differences,
                            List<Failure> failures, long wallNanos) {

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

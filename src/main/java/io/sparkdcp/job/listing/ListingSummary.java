package io.sparkdcp.job.listing;

import io.sparkdcp.copy.CopyCounts;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Stat;
import io.sparkdcp.walk.DirectoryBlock;
import io.sparkdcp.walk.Entry;
import io.sparkdcp.walk.SubtreeWalk;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * What the driver keeps of a listing wherever it lives: entries, bytes of files, directories per
 * depth, files with more than one link, the size of the largest file, the directories still to walk,
 * and the walk's errors (the first {@link CopyCounts#MAX_FAILURES_KEPT} of them, and how many).
 *
 * <p>A file with several names counts its bytes once: each name adds size/nlink, kept exact as the sum of the
 * sizes of the names with k links, per k ({@code linkedSizesByLinks}), divided by k at the end. The sums add up
 * the same whichever walk task met which name, so a listing on the driver and one in rounds on the executors
 * agree; a file with names outside SRC counts the share of its names inside.
 *
 * <p>The files' data bytes ({@link Stat#dataBytes}: their sizes without the holes) are summed the same way.
 *
 * @param singleLinkBytes    bytes of the files with one link
 * @param linkedSizesByLinks for each link count k above one, the sum of the sizes of the names with k links
 * @param singleLinkData     data bytes of the files with one link
 * @param linkedDataByLinks  for each link count k above one, the sum of the data bytes of the names with k links
 */
public record ListingSummary(long entries, long singleLinkBytes, long[] directoriesByDepth, long linkedFiles, long largestFile,
                             long frontier, List<Failure> errors, long errorCount, Map<Long, Long> linkedSizesByLinks,
                             long singleLinkData, Map<Long, Long> linkedDataByLinks)
        implements java.io.Serializable {
    public static final ListingSummary EMPTY = new ListingSummary(0, 0, new long[0], 0, 0, 0, List.of(), 0, Map.of(), 0, Map.of());

    /** Bytes of regular files, each inode's once. */
    public long fileBytes() {
        return perInode(singleLinkBytes, linkedSizesByLinks);
    }

    /** Data bytes of regular files (holes left out), each inode's once: what a copy of them all writes. */
    public long dataBytes() {
        return perInode(singleLinkData, linkedDataByLinks);
    }

    private static long perInode(long singleLink, Map<Long, Long> linkedByLinks) {
        long bytes = singleLink;
        for (Map.Entry<Long, Long> k : linkedByLinks.entrySet()) bytes += k.getValue() / k.getKey();
        return bytes;
    }

    /** This summary with the walk's errors, all of them kept. */
    public ListingSummary withErrors(List<Failure> all) {
        return new ListingSummary(entries, singleLinkBytes, directoriesByDepth, linkedFiles, largestFile, frontier, all, all.size(),
                linkedSizesByLinks, singleLinkData, linkedDataByLinks);
    }

    /** A walk task's part. */
    public static ListingSummary of(SubtreeWalk.Result r) {
        return of(r.blocks(), r.errors(), r.frontier().size());
    }

    public static ListingSummary of(List<DirectoryBlock> blocks, List<Failure> allErrors, long frontier) {
        long entries = 0, bytes = 0, data = 0, linked = 0, largest = 0;
        long[] byDepth = new long[0];
        Map<Long, Long> linkedSizes = new HashMap<>();
        Map<Long, Long> linkedData = new HashMap<>();
        for (DirectoryBlock b : blocks) {
            entries += b.entryCount();
            if (b.directory() != null) {
                int depth = PathBytes.depth(b.path());
                if (byDepth.length <= depth) byDepth = Arrays.copyOf(byDepth, depth + 1);
                byDepth[depth]++;
            }
            for (Entry f : b.files()) {
                if (f.type() != FileType.FILE) continue;
                largest = Math.max(largest, f.stat().size());
                if (f.stat().nlink() == 1) {
                    bytes += f.stat().size();
                    data += f.stat().dataBytes();
                    continue;
                }
                linkedSizes.merge(f.stat().nlink(), f.stat().size(), Long::sum);
                linkedData.merge(f.stat().nlink(), f.stat().dataBytes(), Long::sum);
                linked++;
            }
        }
        List<Failure> errors = allErrors.size() <= CopyCounts.MAX_FAILURES_KEPT ? allErrors
                : new ArrayList<>(allErrors.subList(0, CopyCounts.MAX_FAILURES_KEPT));
        return new ListingSummary(entries, bytes, byDepth, linked, largest, frontier, errors, allErrors.size(), linkedSizes,
                data, linkedData);
    }

    public ListingSummary plus(ListingSummary o) {
        long[] byDepth = Arrays.copyOf(directoriesByDepth, Math.max(directoriesByDepth.length, o.directoriesByDepth.length));
        for (int i = 0; i < o.directoriesByDepth.length; i++) byDepth[i] += o.directoriesByDepth[i];
        List<Failure> kept = new ArrayList<>(errors);
        for (Failure f : o.errors) if (kept.size() < CopyCounts.MAX_FAILURES_KEPT) kept.add(f);
        Map<Long, Long> linkedSizes = new HashMap<>(linkedSizesByLinks);
        o.linkedSizesByLinks.forEach((links, sizes) -> linkedSizes.merge(links, sizes, Long::sum));
        Map<Long, Long> linkedData = new HashMap<>(linkedDataByLinks);
        o.linkedDataByLinks.forEach((links, sizes) -> linkedData.merge(links, sizes, Long::sum));
        return new ListingSummary(entries + o.entries, singleLinkBytes + o.singleLinkBytes, byDepth, linkedFiles + o.linkedFiles,
                Math.max(largestFile, o.largestFile), frontier + o.frontier, kept, errorCount + o.errorCount, linkedSizes,
                singleLinkData + o.singleLinkData, linkedData);
    }

    public boolean complete() { return errorCount == 0; }

    /** Each walk error as a failure of the job: the kept ones (worded by {@code as}) in full, the rest counted. */
    public void addErrorsTo(CopyCounts counts, UnaryOperator<Failure> as) {
        for (Failure f : errors) counts.addFailure(as.apply(f));
        counts.addFailuresNotKept(errorCount - errors.size());
    }
}

package io.sparkdcp.job;

import io.sparkdcp.copy.CopyCounts;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.walk.DirectoryBlock;
import io.sparkdcp.walk.Entry;
import io.sparkdcp.walk.SubtreeWalk;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * What the driver keeps of a listing wherever it lives: entries, bytes of files (each inode's once, however
 * many of its names the listing holds: a walk task's names of one inode count once per task), directories per
 * depth, files with more than one link, the size of the largest file, the directories still to walk,
 * and the walk's errors (the first {@link CopyCounts#MAX_FAILURES_KEPT} of them, and how many).
 */
public record ListingSummary(long entries, long fileBytes, long[] directoriesByDepth, long linkedFiles, long largestFile,
                             long frontier, List<Failure> errors, long errorCount) implements java.io.Serializable {
    public static final ListingSummary EMPTY = new ListingSummary(0, 0, new long[0], 0, 0, 0, List.of(), 0);

    /** A walk task's part. */
    public static ListingSummary of(SubtreeWalk.Result r) {
        return of(r.blocks(), r.errors(), r.frontier().size());
    }

    public static ListingSummary of(List<DirectoryBlock> blocks, List<Failure> allErrors, long frontier) {
        long entries = 0, bytes = 0, linked = 0, largest = 0;
        long[] byDepth = new long[0];
        Set<List<Long>> linkedInodes = new HashSet<>();
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
                boolean firstName = f.stat().nlink() == 1 || linkedInodes.add(List.of(f.stat().dev(), f.stat().ino()));
                if (firstName) bytes += f.stat().size();
                if (f.stat().nlink() > 1) linked++;
            }
        }
        List<Failure> errors = allErrors.size() <= CopyCounts.MAX_FAILURES_KEPT ? allErrors
                : new ArrayList<>(allErrors.subList(0, CopyCounts.MAX_FAILURES_KEPT));
        return new ListingSummary(entries, bytes, byDepth, linked, largest, frontier, errors, allErrors.size());
    }

    public ListingSummary plus(ListingSummary o) {
        long[] byDepth = Arrays.copyOf(directoriesByDepth, Math.max(directoriesByDepth.length, o.directoriesByDepth.length));
        for (int i = 0; i < o.directoriesByDepth.length; i++) byDepth[i] += o.directoriesByDepth[i];
        List<Failure> kept = new ArrayList<>(errors);
        for (Failure f : o.errors) if (kept.size() < CopyCounts.MAX_FAILURES_KEPT) kept.add(f);
        return new ListingSummary(entries + o.entries, fileBytes + o.fileBytes, byDepth, linkedFiles + o.linkedFiles,
                Math.max(largestFile, o.largestFile), frontier + o.frontier, kept, errorCount + o.errorCount);
    }

    public boolean complete() { return errorCount == 0; }

    /** Each walk error as a failure of the job: the kept ones (worded by {@code as}) in full, the rest counted. */
    public void addErrorsTo(CopyCounts counts, UnaryOperator<Failure> as) {
        for (Failure f : errors) counts.addFailure(as.apply(f));
        counts.addFailuresNotKept(errorCount - errors.size());
    }
}

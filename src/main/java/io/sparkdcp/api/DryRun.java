package io.sparkdcp.api;

import io.sparkdcp.copy.CopyCounts;
import io.sparkdcp.job.SyncPreview;
import io.sparkdcp.posix.Failure;

import java.io.PrintWriter;
import java.util.List;

/** What {@code copy --dry-run} or {@code sync --dry-run} found: the plan as lines, judged from the listings; nothing was written. */
public final class DryRun {
    private final List<SyncPreview> previews;
    private final List<String> prefixes;

    /** @param prefixes per source, what its paths are shown under */
    DryRun(List<SyncPreview> previews, List<String> prefixes) {
        this.previews = previews;
        this.prefixes = prefixes;
    }

    /** One line per action ({@code copy: PATH}, {@code fix metadata: PATH}, {@code delete: PATH}), then totals. */
    @Override
    public String toString() {
        return DryRunText.render(previews, prefixes);
    }

    /** 0, or 1 when part of a SRC could not be listed. */
    public int exitCode() {
        return previews.stream().allMatch(p -> p.sourceErrors().isEmpty()) ? 0 : 1;
    }

    /** The entries the walks of SRC could not list and why deletion would be refused, one {@code spark-dcp: } line each. */
    public void printProblems(PrintWriter err) {
        List<Failure> errors = previews.stream().flatMap(p -> p.sourceErrors().stream()).toList();
        ProblemLines.print(err, "failed", errors, errors.size() + previews.stream().mapToLong(p -> p.notShown().sourceErrors()).sum());
        for (SyncPreview p : previews) {
            SyncPreview.NotShown n = p.notShown();
            if (n.copy() + n.fixMetadata() + n.delete() + n.refused() + n.keptNewer() > 0) {
                err.printf("spark-dcp: the dry run on the executors lists the first %,d entries of each action: %,d to copy, "
                                + "%,d to fix, %,d to delete, %,d refused and %,d kept are not listed (the totals count them)%n",
                        CopyCounts.MAX_FAILURES_KEPT, n.copy(), n.fixMetadata(), n.delete(), n.refused(), n.keptNewer());
            }
            if (p.deletionRefused() != null) {
                err.println("spark-dcp: deletion refused: " + p.deletionRefused() + "; nothing would be deleted");
                err.flush();
            }
        }
    }
}

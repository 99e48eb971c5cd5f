package io.sparkdcp.api;

import io.sparkdcp.job.SyncPreview;

import java.io.PrintWriter;

/** What {@code copy --dry-run} or {@code sync --dry-run} found: the plan as lines, judged from the two listings; nothing was written. */
public final class DryRun {
    private final SyncPreview preview;

    DryRun(SyncPreview preview) {
        this.preview = preview;
    }

    /** One line per action ({@code copy: PATH}, {@code fix metadata: PATH}, {@code delete: PATH}), then totals. */
    @Override
    public String toString() {
        return DryRunText.render(preview);
    }

    /** 0, or 1 when part of SRC could not be listed. */
    public int exitCode() {
        return preview.sourceErrors().isEmpty() ? 0 : 1;
    }

    /** The entries SRC's walk could not list and why deletion would be refused, one {@code spark-dcp: } line each. */
    public void printProblems(PrintWriter err) {
        ProblemLines.print(err, "failed", preview.sourceErrors(), preview.sourceErrors().size());
        if (preview.deletionRefused() != null) {
            err.println("spark-dcp: deletion refused: " + preview.deletionRefused() + "; nothing would be deleted");
            err.flush();
        }
    }
}

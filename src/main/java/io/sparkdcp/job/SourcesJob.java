package io.sparkdcp.job;

import io.sparkdcp.copy.CopyCounts;
import io.sparkdcp.progress.Work;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.report.ListedSource;

import java.util.List;
import java.util.function.Consumer;

/**
 * Several sources as one job: each pair of roots is copied (or synced, --delete inside its own
 * destination only) in turn on the same runner, so its steps add up in one accumulator table, and
 * the outcomes add up in one report, failures shown by their path in DST. A single pair is its own
 * job, unchanged (paths relative to SRC).
 */
public final class SourcesJob {
    /** One pair's whole job (it holds that pair's DST lock while it runs). */
    public interface PairJob {
        CopyReport run(int pair, Consumer<Work> planned);
    }

    private SourcesJob() {}

    /**
     * @param names   each pair's name in DST, under which its failures are shown
     * @param planned told the entries and bytes of the pairs listed so far (for progress: the runner's
     *                count of what is done covers them all)
     * @param listingDir the saved listing's directory as given (each pair's is DIR/source-N in it), or null
     */
    public static CopyReport run(List<String> names, String sources, String destination, Consumer<Work> planned,
                                 String listingDir, PairJob job) {
        int pairs = names.size();
        if (pairs == 1) return job.run(0, planned);
        long start = System.nanoTime();
        CopyCounts counts = new CopyCounts();
        long entries = 0, bytes = 0, ledgerUnchanged = 0;
        boolean complete = true;
        CopyReport last = null;
        Work[] plannedBefore = {Work.NONE}; // the earlier pairs' totals as they were told
        for (int pair = 0; pair < pairs; pair++) {
            Work before = plannedBefore[0];
            last = job.run(pair, w -> {
                plannedBefore[0] = before.plus(w);
                planned.accept(plannedBefore[0]);
            });
            counts.merge(last.counts().under(names.get(pair)));
            entries += last.listed().entries();
            bytes += last.listed().bytes();
            ledgerUnchanged += last.listed().ledgerUnchanged();
            complete &= last.listed().complete();
        }
        // The runner's steps are the whole job's: the last pair's report already holds them all.
        return new CopyReport(sources, destination, last.settings(), new ListedSource(entries, bytes, complete, last.listed().by(), listingDir, ledgerUnchanged),
                counts, last.steps(), System.nanoTime() - start);
    }
}

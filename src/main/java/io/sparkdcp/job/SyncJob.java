package io.sparkdcp.job;

import io.sparkdcp.copy.CopyCounts;
import io.sparkdcp.copy.CopyEngine;
import io.sparkdcp.copy.CopyOptions;
import io.sparkdcp.plan.DeletionPlanner;
import io.sparkdcp.plan.Planner;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.progress.Work;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.report.Counted;
import io.sparkdcp.walk.Entry;
import io.sparkdcp.walk.Listing;
import io.sparkdcp.walk.TreeWalker;

import java.util.List;
import java.util.function.Consumer;

/**
 * Makes DST identical to SRC: with {@code delete}, first removes what SRC no longer has (deepest
 * first, through the engine's safe deletion), then runs the copy in sync mode, which keeps data that
 * is already right and fixes only metadata that differs. Deletion needs a complete listing of SRC:
 * after any walk error nothing is deleted, and the refusal is a failure of its own.
 */
public final class SyncJob {
    /** Path shown for failures of the job as a whole rather than of one entry. */
    public static final String WHOLE_TREE = ".";

    private final JobOptions options;
    private final boolean delete;
    private final PhaseRunner runner;
    private final Consumer<String> log;
    private final Consumer<Work> planned;
    private boolean destinationCreated;

    public SyncJob(JobOptions options, boolean delete, PhaseRunner runner, Consumer<String> log) {
        this(options, delete, runner, log, total -> {});
    }

    /** @param planned told the copy's entries and bytes once the source is listed (for progress) */
    public SyncJob(JobOptions options, boolean delete, PhaseRunner runner, Consumer<String> log, Consumer<Work> planned) {
        if (!options.copy().modes().sync()) throw new IllegalArgumentException("a sync job needs the sync mode");
        this.options = options;
        this.delete = delete;
        this.runner = runner;
        this.log = log;
        this.planned = planned;
    }

    /** Tells the job that this run created DST's root: it counts as copied, not as metadata fixed. */
    public SyncJob destinationCreated(boolean created) {
        this.destinationCreated = created;
        return this;
    }

    /** The whole sync, holding DST's lock and with both roots pinned for every task. */
    public CopyReport run() {
        long start = System.nanoTime();
        try (HeldRoots roots = HeldRoots.take(options.copy());
             TaskItemLog failures = TaskItemLog.forDriver(options.copy())) {
            JobOptions pinned = options.withCopy(roots.pinned());
            CopyJob copy = new CopyJob(pinned, runner, log, planned).destinationCreated(destinationCreated);
            Listing source = copy.walkSource();
            CopyCounts counts = new CopyCounts(failures.log());
            // A file as SRC maps onto one name: there is nothing beside it that SRC could lack (rsync's rule).
            if (delete && pinned.copy().rootFile() == null) deleteExtraneous(pinned, source, counts);
            CopyReport report = copy.run(source, counts, start);
            failures.commit();
            return report;
        }
    }

    private void deleteExtraneous(JobOptions options, Listing source, CopyCounts counts) {
        if (!source.complete()) {
            String reason = "deletion refused: the walk of the source reported " + source.errors().size()
                    + " error(s), so what it lacks is unknown; nothing was deleted";
            log.accept(reason);
            counts.addFailure(new Failure(WHOLE_TREE, "delete", "", reason));
            return;
        }
        CopyOptions copy = options.copy();
        Listing destination = walkDestination(copy);
        // Unlisted parts of DST cannot be compared: report them; what was listed is still safe to judge.
        for (Failure f : destination.errors())
            counts.addFailure(new Failure(f.path(), f.op(), f.errno(), "destination, not deleted: " + f.message()));
        List<List<Entry>> levels = DeletionScope.withoutMounts(DeletionPlanner.deepestFirst(source, destination),
                copy.destinationRoot(), counts::addNotice);
        int total = levels.stream().mapToInt(List::size).sum();
        log.accept("deleting " + Counted.of(total, "destination entry") + " the source does not have");
        for (List<Entry> level : levels) {
            for (var r : runner.run("delete, depth " + io.sparkdcp.posix.PathBytes.depth(level.get(0).path()),
                    Planner.partition(level, options.batchFiles()), copy, CopyEngine::deleteEntries)) {
                counts.merge(r.counts());
            }
        }
    }

    Listing walkDestination(CopyOptions copy) {
        return new TreeWalker(options.walkThreads(), false, options.listing().destinationFilter()).walk(copy.destinationRoot());
    }
}

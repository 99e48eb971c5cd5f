package io.sparkdcp.job.exec;

import io.sparkdcp.job.listing.ListingSummary;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.report.Counted;
import io.sparkdcp.walk.DirectoryBlock;
import io.sparkdcp.walk.Filter;
import io.sparkdcp.walk.Listing;
import io.sparkdcp.walk.Subdirectory;
import io.sparkdcp.walk.SubtreeWalk;
import io.sparkdcp.walk.TreeWalker;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Lists a tree on a runner's tasks in rounds: each round's tasks list their directories' subtrees up
 * to a budget and hand on the directories they did not reach, which the next round deals out again.
 * The tree is walked at the metadata rate of all tasks together. The rounds ({@link #inRounds}) run
 * over any {@link Spread}: here on the driver's lists, whose listing comes back whole; on the
 * executors the listing stays there.
 */
public final class DistributedWalk {
    /** How long a task lists per round: long enough to amortise a Spark job, short enough to rebalance. */
    static final long ROUND_NANOS = 2_000_000_000L;
    /** The first round is short, so that the work spreads out early. */
    static final long FIRST_ROUND_NANOS = 200_000_000L;
    /**
     * Entries all tasks of one round list together at most when the listing comes back to the driver:
     * a round's blocks come back through one collect, which spark.driver.maxResultSize (1 GiB by default)
     * bounds; at ~100 bytes per entry this keeps a round near 200 MB however many task slots there are.
     */
    static final long ENTRIES_PER_ROUND = 2_000_000;

    private final PhaseRunner runner;
    private final int walkThreads;
    private final long entriesPerTask;
    private final Consumer<String> log;

    /** @param walkThreads threads each task lists with, to keep several metadata reads in flight */
    public DistributedWalk(PhaseRunner runner, int walkThreads, Consumer<String> log) {
        this(runner, walkThreads, Long.MAX_VALUE, log);
    }

    /** @param entriesPerTask a task's budget of entries per round besides its time (tests force many rounds) */
    DistributedWalk(PhaseRunner runner, int walkThreads, long entriesPerTask, Consumer<String> log) {
        this.runner = runner;
        this.walkThreads = walkThreads;
        this.entriesPerTask = entriesPerTask;
        this.log = log;
    }

    public Listing walk(byte[] sourceRoot, boolean projectIds) {
        return walk(sourceRoot, projectIds, Filter.NONE);
    }

    /** @param filter which entries are listed (a directory left out is not walked) */
    public Listing walk(byte[] sourceRoot, boolean projectIds, Filter filter) {
        Rounds rounds = inRounds(LocalSpread.of(runner, List.of(root(sourceRoot))), runner.parallelism(), walkThreads,
                entriesPerTask, ENTRIES_PER_ROUND, sourceRoot, projectIds, filter);
        List<DirectoryBlock> blocks = new ArrayList<>();
        List<Failure> errors = new ArrayList<>();
        for (Spread<RoundCuts.Task> round : rounds.rounds())
            for (RoundCuts.Task t : round.collect()) {
                blocks.addAll(t.result().blocks());
                errors.addAll(t.result().errors());
            }
        log.accept("walked " + runner.where() + " in " + Counted.of(rounds.rounds().size(), "round"));
        return Listing.sorted(blocks, errors);
    }

    /** The tree's root, to deal out first. */
    public static Subdirectory root(byte[] sourceRoot) {
        try (Fd fd = TreeWalker.openRoot(sourceRoot)) {
            return new Subdirectory(PathBytes.EMPTY, Posix.fstat(fd));
        }
    }

    /** Each round's tasks, kept where they ran, and the counts of them all. */
    public record Rounds(List<Spread<RoundCuts.Task>> rounds, ListingSummary summary) {
        public Spread<DirectoryBlock> blocks() {
            Spread<DirectoryBlock> all = null;
            for (Spread<RoundCuts.Task> round : rounds) {
                Spread<DirectoryBlock> listed = round.mapShares(DistributedWalk::blocksOf);
                all = all == null ? listed : all.union(listed);
            }
            return all;
        }
    }

    /**
     * Walks from {@code root} (one directory, spread where the walk's tasks run) in rounds of at most
     * {@code tasksPerRound} tasks, each with a budget of entries ({@code entriesPerRound} shared by the
     * round's tasks) and time; a share computed again lists what it listed the first time ({@link RoundCuts}).
     */
    public static Rounds inRounds(Spread<Subdirectory> root, int tasksPerRound, int threads, long entriesPerTask, long entriesPerRound,
                                  byte[] sourceRoot, boolean projectIds, Filter filter) {
        Spread<Subdirectory> frontier = root;
        List<Spread<RoundCuts.Task>> rounds = new ArrayList<>();
        ListingSummary summary = ListingSummary.EMPTY;
        for (long pending = 1; pending > 0; ) {
            int tasks = (int) Math.max(1, Math.min(tasksPerRound, pending));
            TreeWalker.Budget budget = new TreeWalker.Budget(Math.min(entriesPerTask, entriesPerRound / tasks),
                    rounds.isEmpty() ? FIRST_ROUND_NANOS : ROUND_NANOS);
            RoundCuts cuts = new RoundCuts();
            Spread<RoundCuts.Task> results = frontier.spreadOver(tasks).mapInTasks("walk, round " + (rounds.size() + 1), share -> {
                if (share.isEmpty()) return List.of();
                var key = RoundCuts.shareOf(share);
                return List.of(new RoundCuts.Task(key, new SubtreeWalk(sourceRoot, projectIds, filter, threads, share, budget, cuts.of(key)).run()));
            }).kept();
            rounds.add(results);
            pending = 0;
            for (RoundCuts.Report r : results.mapShares(RoundCuts::reports).collect()) {
                cuts.record(r);
                summary = summary.plus(r.summary());
                pending += r.summary().frontier();
            }
            frontier = results.mapShares(DistributedWalk::frontierOf);
        }
        return new Rounds(rounds, summary);
    }

    private static Iterable<DirectoryBlock> blocksOf(List<RoundCuts.Task> tasks) {
        return tasks.stream().flatMap(t -> t.result().blocks().stream()).toList();
    }

    private static Iterable<Subdirectory> frontierOf(List<RoundCuts.Task> tasks) {
        return tasks.stream().flatMap(t -> t.result().frontier().stream()).toList();
    }
}

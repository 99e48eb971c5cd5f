package io.sparkdcp.job;

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
 * Lists the source on the runner's tasks (the executors, or threads in this JVM) in rounds: each round's tasks list their directories' subtrees
 * up to a budget of entries and hand back the directories they did not reach, which the next round
 * deals out again. The tree is walked at the metadata rate of all executors together; the driver
 * holds only the packed blocks and the frontier of directories.
 */
public final class DistributedWalk {
    /** How long a task lists per round: long enough to amortise a Spark job, short enough to rebalance. */
    static final long ROUND_NANOS = 2_000_000_000L;
    /** The first round is short, so that the work spreads out early. */
    static final long FIRST_ROUND_NANOS = 200_000_000L;
    /**
     * Entries all tasks of one round list together at most: a round's blocks come back through one
     * collect, which spark.driver.maxResultSize (1 GiB by default) bounds; at ~100 bytes per entry
     * this keeps a round near 200 MB however many task slots the cluster has.
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
        List<Subdirectory> frontier = new ArrayList<>();
        try (Fd root = TreeWalker.openRoot(sourceRoot)) {
            frontier.add(new Subdirectory(PathBytes.EMPTY, Posix.fstat(root)));
        }
        List<DirectoryBlock> blocks = new ArrayList<>();
        List<Failure> errors = new ArrayList<>();
        int round = 0;
        while (!frontier.isEmpty()) {
            round++;
            // One task per slot: with a time budget they all end together.
            List<List<Subdirectory>> shares = dealOut(frontier, runner.parallelism());
            TreeWalker.Budget budget = new TreeWalker.Budget(Math.min(entriesPerTask, ENTRIES_PER_ROUND / shares.size()),
                    round == 1 ? FIRST_ROUND_NANOS : ROUND_NANOS);
            List<SubtreeWalk> tasks = new ArrayList<>();
            for (List<Subdirectory> share : shares) tasks.add(new SubtreeWalk(sourceRoot, projectIds, filter, walkThreads, share, budget));
            frontier = new ArrayList<>();
            for (SubtreeWalk.Result r : runner.map("walk, round " + round, tasks, SubtreeWalk::run)) {
                blocks.addAll(r.blocks());
                errors.addAll(r.errors());
                frontier.addAll(r.frontier());
            }
        }
        log.accept("walked " + runner.where() + " in " + Counted.of(round, "round"));
        return Listing.sorted(blocks, errors);
    }

    /** Deals directories out round-robin to at most n tasks, so big and small subtrees mix. */
    static List<List<Subdirectory>> dealOut(List<Subdirectory> dirs, int n) {
        int tasks = Math.max(1, Math.min(n, dirs.size()));
        List<List<Subdirectory>> out = new ArrayList<>();
        for (int i = 0; i < tasks; i++) out.add(new ArrayList<>());
        for (int i = 0; i < dirs.size(); i++) out.get(i % tasks).add(dirs.get(i));
        return out;
    }
}

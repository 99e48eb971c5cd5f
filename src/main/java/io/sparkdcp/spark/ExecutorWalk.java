package io.sparkdcp.spark;

import io.sparkdcp.job.ListingSummary;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.report.Counted;
import io.sparkdcp.walk.DirectoryBlock;
import io.sparkdcp.walk.SavedListing;
import io.sparkdcp.walk.Subdirectory;
import io.sparkdcp.walk.Filter;
import io.sparkdcp.walk.SubtreeWalk;
import io.sparkdcp.walk.TreeWalker;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.function.Consumer;

/**
 * The distributed walk whose listing stays on the executors: each round's tasks list their
 * directories' subtrees within a time budget, keep what they listed as a persisted partition of
 * directory blocks, and hand on the directories they did not reach as the next round's input,
 * without either passing through the driver. The driver receives one {@link ListingSummary} per
 * task, counts, never an entry, and the one path where the task stopped ({@link RoundCuts}): a
 * partition that Spark computes again lists what it listed the first time.
 */
final class ExecutorWalk {
    /** How long a task lists per round: long enough to amortise a Spark job, short enough to rebalance. */
    static final long ROUND_NANOS = 2_000_000_000L;
    /** The first round is short, so that the work spreads out early. */
    static final long FIRST_ROUND_NANOS = 200_000_000L;

    private final JavaSparkContext sc;
    private final int tasksPerRound;
    private final int threadsPerTask;
    private final long entriesPerTask;
    private final Consumer<String> log;
    private final List<JavaRDD<SubtreeWalk.Result>> rounds = new ArrayList<>();

    /** @param entriesPerTask a task's budget of entries per round besides its time (tests force many rounds) */
    ExecutorWalk(JavaSparkContext sc, int tasksPerRound, int threadsPerTask, long entriesPerTask, Consumer<String> log) {
        this.sc = sc;
        this.tasksPerRound = tasksPerRound;
        this.threadsPerTask = threadsPerTask;
        this.entriesPerTask = entriesPerTask;
        this.log = log;
    }

    /** The walk's blocks, persisted on the executors until {@link #release}, and what the driver knows of them. */
    record Walked(JavaRDD<DirectoryBlock> blocks, ListingSummary summary) {}

    /** The source's listing as the job asks for it: a saved listing read back, or a walk (saved if asked). */
    Walked source(io.sparkdcp.job.JobOptions job) {
        io.sparkdcp.job.ListingOptions how = job.listing();
        byte[] root = job.copy().sourceRoot();
        if (how.listing() != null) return read(how.listing());
        Walked walked = walk(root, job.copy().readsFsXattr(), how.filter());
        if (how.saveListing() != null) save(how.saveListing(), root, job.copy().readsFsXattr());
        return walked;
    }

    /** @param filter what is listed (--exclude, --include); an excluded directory is not walked */
    Walked walk(byte[] sourceRoot, boolean projectIds, Filter filter) {
        Subdirectory root;
        try (Fd fd = TreeWalker.openRoot(sourceRoot)) {
            root = new Subdirectory(PathBytes.EMPTY, Posix.fstat(fd));
        }
        JavaRDD<Subdirectory> frontier = sc.parallelize(List.of(root), 1);
        long pending = 1;
        JavaRDD<DirectoryBlock> blocks = null;
        ListingSummary summary = ListingSummary.EMPTY;
        int round = 0;
        while (pending > 0) {
            round++;
            int tasks = (int) Math.max(1, Math.min(tasksPerRound, pending));
            TreeWalker.Budget budget = new TreeWalker.Budget(entriesPerTask, round == 1 ? FIRST_ROUND_NANOS : ROUND_NANOS);
            int threads = threadsPerTask;
            sc.setJobDescription("spark-dcp: walk, round " + round);
            RoundCuts cuts = new RoundCuts();
            JavaRDD<SubtreeWalk.Result> results = RddSpread.dealt(frontier, tasks).mapPartitionsWithIndex((p, share) -> {
                List<Subdirectory> dirs = new ArrayList<>();
                share.forEachRemaining(dirs::add);
                if (dirs.isEmpty()) return Collections.emptyIterator();
                return List.of(new SubtreeWalk(sourceRoot, projectIds, filter, threads, dirs, budget, cuts.of(p)).run()).iterator();
            }, false).persist(RddSpread.kept(sc.sc()));
            rounds.add(results);
            pending = 0;
            for (RoundCuts.Report r : results.mapPartitionsWithIndex(ExecutorWalk::reports, false).collect()) {
                cuts.record(r);
                summary = summary.plus(r.summary());
                pending += r.summary().frontier();
            }
            frontier = results.flatMap(r -> r.frontier().iterator());
            JavaRDD<DirectoryBlock> listed = results.flatMap(r -> r.blocks().iterator());
            blocks = blocks == null ? listed : blocks.union(listed);
        }
        sc.setJobDescription(null);
        log.accept("walked on the executors in " + Counted.of(round, "round") + "; the listing stays there");
        return new Walked(blocks, summary);
    }

    private static Iterator<RoundCuts.Report> reports(int partition, Iterator<SubtreeWalk.Result> results) {
        List<RoundCuts.Report> out = new ArrayList<>();
        results.forEachRemaining(r -> out.add(new RoundCuts.Report(partition, r.last(), ListingSummary.of(r))));
        return out.iterator();
    }

    /**
     * Writes the walk's listing to {@code dir} from the executors: each walk task's blocks and errors
     * as one part, then {@code _SUCCESS} from the driver once all are written. Call after {@link #walk}.
     */
    void save(String dir, byte[] sourceRoot, boolean projectIds) {
        SavedListing.start(dir);
        int offset = 0;
        sc.setJobDescription("spark-dcp: save the listing");
        for (JavaRDD<SubtreeWalk.Result> results : rounds) {
            int first = offset;
            results.mapPartitionsWithIndex((i, part) -> {
                while (part.hasNext()) {
                    SubtreeWalk.Result r = part.next();
                    SavedListing.writePart(dir, first + i, sourceRoot, projectIds, r.blocks(), r.errors());
                }
                return Collections.emptyIterator();
            }, false).count();
            offset += results.getNumPartitions();
        }
        sc.setJobDescription(null);
        SavedListing.finish(dir);
        log.accept(String.format("the executors saved the listing to %s in %s", dir, Counted.of(offset, "part")));
    }

    /** A saved listing read back by the executors, one task per part, kept there as a walk's blocks are. */
    Walked read(String dir) {
        List<String> parts = SavedListing.parts(dir);
        sc.setJobDescription("spark-dcp: read the listing");
        JavaRDD<SubtreeWalk.Result> results = sc.parallelize(parts, parts.size())
                .map(part -> new SubtreeWalk.Result(SavedListing.readPart(part), List.of(), SavedListing.errors(part)))
                .persist(RddSpread.kept(sc.sc()));
        rounds.add(results);
        ListingSummary summary = ListingSummary.EMPTY;
        for (ListingSummary s : results.map(ListingSummary::of).collect()) summary = summary.plus(s);
        sc.setJobDescription(null);
        log.accept(String.format("the executors read the listing saved in %s (%s): %s", dir, Counted.of(parts.size(), "part"),
                Counted.of(summary.entries(), "entry")));
        return new Walked(results.flatMap(r -> r.blocks().iterator()), summary);
    }

    /** Drops the persisted rounds (the walk's blocks with them). */
    void release() {
        for (JavaRDD<?> rdd : rounds) rdd.unpersist(false);
        rounds.clear();
    }
}

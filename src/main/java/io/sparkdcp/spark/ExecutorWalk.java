package io.sparkdcp.spark;

import io.sparkdcp.job.exec.DistributedWalk;
import io.sparkdcp.job.listing.ListingSummary;
import io.sparkdcp.job.exec.RoundCuts;
import io.sparkdcp.job.exec.Spread;
import io.sparkdcp.report.Counted;
import io.sparkdcp.walk.DirectoryBlock;
import io.sparkdcp.walk.SavedListing;
import io.sparkdcp.walk.Filter;
import io.sparkdcp.walk.SubtreeWalk;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.function.Consumer;

/**
 * The distributed walk ({@link DistributedWalk#inRounds}) with its listing kept on the executors:
 * each round's results are a persisted partition per task, and the frontier passes from round to
 * round without the driver, which receives one {@link ListingSummary} per task, never an entry. Also
 * saves the listing from there, or reads a saved one back there.
 */
final class ExecutorWalk {
    private final RddSpread.Job job;
    private final JavaSparkContext sc;
    private final int threadsPerTask;
    private final long entriesPerTask;
    private final Consumer<String> log;
    /** The walk's rounds, each task's result in its partition: persisted until {@link #release}. */
    private final List<JavaRDD<RoundCuts.Task>> rounds = new ArrayList<>();

    /** @param entriesPerTask a task's budget of entries per round besides its time (tests force many rounds) */
    ExecutorWalk(SparkPhaseRunner runner, int threadsPerTask, long entriesPerTask, Consumer<String> log) {
        this.job = new RddSpread.Job(runner);
        this.sc = runner.context();
        this.threadsPerTask = threadsPerTask;
        this.entriesPerTask = entriesPerTask;
        this.log = log;
    }

    /** The walk's blocks, persisted on the executors until {@link #release}, and what the driver knows of them. */
    record Walked(JavaRDD<DirectoryBlock> blocks, ListingSummary summary) {}

    /** The source's listing as the job asks for it: a saved listing read back, or a walk (saved if asked). */
    Walked source(io.sparkdcp.job.exec.JobOptions options) {
        io.sparkdcp.job.listing.ListingOptions how = options.listing();
        byte[] root = options.copy().sourceRoot();
        if (how.listing() != null) return read(how.listing());
        Walked walked = walk(root, options.copy().readsFsXattr(), how.filter());
        if (how.saveListing() != null) save(how.saveListing(), root, options.copy().readsFsXattr());
        return walked;
    }

    /** @param filter what is listed (--exclude, --include); an excluded directory is not walked */
    Walked walk(byte[] sourceRoot, boolean projectIds, Filter filter) {
        DistributedWalk.Rounds walked = DistributedWalk.inRounds(job.spread(sc.parallelize(List.of(DistributedWalk.root(sourceRoot)), 1)),
                sc.defaultParallelism(), threadsPerTask, entriesPerTask, Long.MAX_VALUE, sourceRoot, projectIds, filter);
        for (Spread<RoundCuts.Task> round : walked.rounds()) rounds.add(((RddSpread<RoundCuts.Task>) round).rdd());
        sc.setJobDescription(null);
        log.accept("walked on the executors in " + Counted.of(rounds.size(), "round") + "; the listing stays there");
        return new Walked(((RddSpread<DirectoryBlock>) walked.blocks()).rdd(), walked.summary());
    }

    /**
     * Writes the walk's listing to {@code dir} from the executors: each walk task's blocks and errors
     * as one part, then {@code _SUCCESS} from the driver once all are written. Call after {@link #walk}.
     */
    void save(String dir, byte[] sourceRoot, boolean projectIds) {
        SavedListing.start(dir);
        int offset = 0;
        sc.setJobDescription("spark-dcp: save the listing");
        for (JavaRDD<RoundCuts.Task> results : rounds) {
            int first = offset;
            results.mapPartitionsWithIndex((i, part) -> {
                while (part.hasNext()) {
                    SubtreeWalk.Result r = part.next().result();
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
        JavaRDD<SubtreeWalk.Result> results = job.persist(sc.parallelize(parts, parts.size())
                .map(part -> new SubtreeWalk.Result(SavedListing.readPart(part), List.of(), SavedListing.errors(part))));
        ListingSummary summary = ListingSummary.EMPTY;
        for (ListingSummary s : results.map(ListingSummary::of).collect()) summary = summary.plus(s);
        sc.setJobDescription(null);
        log.accept(String.format("the executors read the listing saved in %s (%s): %s", dir, Counted.of(parts.size(), "part"),
                Counted.of(summary.entries(), "entry")));
        return new Walked(results.flatMap(r -> r.blocks().iterator()), summary);
    }

    /** Drops the persisted rounds (the walk's blocks with them). */
    void release() {
        job.release();
        rounds.clear();
    }
}

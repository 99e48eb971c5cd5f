package io.sparkdcp.spark;

import io.sparkdcp.copy.compare.CompareOutcome;
import io.sparkdcp.copy.compare.Difference;
import io.sparkdcp.copy.EntryComparer;
import io.sparkdcp.copy.compare.EntryPair;
import io.sparkdcp.copy.compare.PairChunk;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.job.CompareJob;
import io.sparkdcp.job.JobOptions;
import io.sparkdcp.job.PhaseRunner;
import io.sparkdcp.job.SourceListing;
import io.sparkdcp.job.WalkMode;
import io.sparkdcp.plan.Planner;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.report.CompareReport;
import io.sparkdcp.report.Counted;
import io.sparkdcp.job.PathKey;
import io.sparkdcp.spark.ParentGroups.Side;
import io.sparkdcp.walk.Entry;
import io.sparkdcp.walk.Filter;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import scala.Tuple2;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;

/**
 * {@code compare} with both listings on the executors (--walk distributed, or auto on a cluster): the
 * two walks are grouped by parent directory there, each group matched by {@link CompareJob#match}
 * (the driver path's rule), names of one inode met in a shuffle by (dev, ino) and judged by
 * {@link CompareJob#splits}, and the pairs compared by {@link EntryComparer} in tasks of
 * --batch-files pairs (large files' bytes in chunk tasks). The driver receives counts, the
 * differences and the failures; never a listing.
 */
public final class ExecutorCompare {
    private final JobOptions options;
    private final long windowNanos;
    private final SparkPhaseRunner runner;
    private final Consumer<String> log;

    public ExecutorCompare(JobOptions options, long windowNanos, SparkPhaseRunner runner, Consumer<String> log) {
        this.options = options;
        this.windowNanos = windowNanos;
        this.runner = runner;
        this.log = log;
    }

    /** What one directory's group gives: its pairs, the differences only its listings show, and entries below one-sided directories. */
    private record Matched(List<EntryPair> pairs, List<Difference> differences, long onlyBelow) implements Serializable {}

    public CompareReport run() {
        long start = System.nanoTime();
        JavaSparkContext sc = runner.context();
        CopyOptions copy = CompareJob.pinned(options.copy());
        ExecutorWalk sourceWalk = new ExecutorWalk(runner, options.walkThreads(), Long.MAX_VALUE, log);
        ExecutorWalk destinationWalk = new ExecutorWalk(runner, options.walkThreads(), Long.MAX_VALUE, log);
        List<JavaRDD<?>> persisted = new ArrayList<>();
        try {
            ExecutorWalk.Walked source = sourceWalk.walk(copy.sourceRoot(), false, Filter.NONE);
            ExecutorWalk.Walked destination = destinationWalk.walk(copy.destinationRoot(), false, Filter.NONE);
            log.accept(String.format(Locale.ROOT, "listed %s in SRC and %,d in DST on the executors",
                    Counted.of(source.summary().entries(), "entry"), destination.summary().entries()));
            List<Failure> failures = new ArrayList<>();
            for (Failure f : source.summary().errors()) failures.add(CompareJob.side(f, "SRC"));
            for (Failure f : destination.summary().errors()) failures.add(CompareJob.side(f, "DST"));
            Set<String> sourceUnreadable = paths(source.summary().errors());
            Set<String> destinationUnreadable = paths(destination.summary().errors());
            Broadcast<Set<String>> unreadableHere = sc.broadcast(sourceUnreadable);
            Broadcast<Set<String>> unreadableThere = sc.broadcast(destinationUnreadable);

            sc.setJobDescription("spark-dcp: compare, match the listings");
            JavaRDD<Matched> matched = ParentGroups.byParent(source.blocks(), true).union(ParentGroups.byParent(destination.blocks(), false))
                    .groupByKey()
                    .map(g -> matchGroup(g._1(), g._2(), unreadableHere.value(), unreadableThere.value()))
                    .persist(RddSpread.kept(sc.sc()));
            persisted.add(matched);
            List<Difference> differences = new ArrayList<>(matched.flatMap(m -> m.differences().iterator()).collect());
            long onlyBelow = matched.map(Matched::onlyBelow).fold(0L, Long::sum);
            JavaRDD<EntryPair> pairs = matched.flatMap(m -> m.pairs().iterator());
            differences.addAll(hardLinks(pairs, true));
            differences.addAll(hardLinks(pairs, false));

            sc.setJobDescription("spark-dcp: compare");
            Set<String> walkFailed = new HashSet<>();
            for (Failure f : failures) walkFailed.add(f.path());
            JobOptions job = options;
            long window = windowNanos;
            int threads = options.threadsPerTask();
            long compared = 0;
            long bytes = 0;
            List<CompareOutcome> outcomes = pairs.mapPartitions(share -> {
                List<EntryPair> all = new ArrayList<>();
                share.forEachRemaining(all::add);
                List<CompareOutcome> out = new ArrayList<>();
                for (List<EntryPair> batch : CompareJob.batches(all, job)) out.add(EntryComparer.compare(copy, window, threads, batch));
                return out.iterator();
            }).collect();
            for (CompareOutcome o : outcomes) {
                differences.addAll(o.differences());
                CompareJob.addFailures(o, walkFailed, failures);
                compared += o.compared();
                bytes += o.bytesCompared();
            }
            if (copy.modes().compareContents()) bytes += compareLargeFiles(pairs, copy, differences, failures);
            differences.sort(CompareJob.BY_PATH);
            return new CompareReport(PathBytes.display(copy.sourceRoot()), PathBytes.display(copy.destinationRoot()),
                    copy.xattrs().word(), copy.projectIds(), copy.flags(), copy.modes().compareContents(), windowNanos, SourceListing.EXECUTORS,
                    source.summary().entries(), destination.summary().entries(), compared, onlyBelow, bytes, differences, failures,
                    System.nanoTime() - start);
        } finally {
            sc.setJobDescription(null);
            for (JavaRDD<?> rdd : persisted) rdd.unpersist(false);
            sourceWalk.release();
            destinationWalk.release();
        }
    }

    /**
     * One directory's entries on both sides matched as the driver matches whole listings: the directory's own
     * entries (from its blocks) stand first, so that what lies in a directory only one side has is counted
     * below it; the directory's own pair and difference belong to its parent's group (the root's to its own).
     */
    private static Matched matchGroup(PathKey directory, Iterable<Side> sides, Set<String> sourceUnreadable,
                                      Set<String> destinationUnreadable) {
        List<Entry> here = new ArrayList<>();
        List<Entry> there = new ArrayList<>();
        for (Side s : sides) {
            switch (s.part()) {
                case SOURCE_FILES -> addBlock(here, s);
                case DESTINATION_FILES -> addBlock(there, s);
                case SOURCE_DIRECTORY -> { if (!s.entry().isRoot()) here.add(s.entry()); }
                case DESTINATION_DIRECTORY -> { if (!s.entry().isRoot()) there.add(s.entry()); }
                case DELETED -> throw new IllegalStateException("a compare deletes nothing");
            }
        }
        here.sort((a, b) -> PathBytes.compare(a.path(), b.path()));
        there.sort((a, b) -> PathBytes.compare(a.path(), b.path()));
        CompareJob.Matched m = CompareJob.match(here, there, sourceUnreadable, destinationUnreadable);
        byte[] self = directory.path();
        if (self.length == 0) return new Matched(m.pairs(), m.differences(), m.onlyBelow());
        return new Matched(m.pairs().stream().filter(p -> !Arrays.equals(p.path(), self)).toList(),
                m.differences().stream().filter(d -> !Arrays.equals(d.path(), self)).toList(), m.onlyBelow());
    }

    private static void addBlock(List<Entry> side, Side s) {
        if (s.files().directory() != null) side.add(s.files().directory());
        side.addAll(s.files().files());
    }

    /** Names of one inode, from one side, met in a shuffle by (dev, ino) and judged together. */
    private static List<Difference> hardLinks(JavaRDD<EntryPair> pairs, boolean fromSource) {
        return pairs.filter(p -> CompareJob.linkedInode(p, fromSource) != null)
                .mapToPair(p -> new Tuple2<>(CompareJob.linkedInode(p, fromSource), p))
                .groupByKey()
                .flatMap(g -> {
                    List<EntryPair> names = new ArrayList<>();
                    g._2().forEach(names::add);
                    names.sort((a, b) -> PathBytes.compare(a.path(), b.path()));
                    List<Difference> out = new ArrayList<>();
                    CompareJob.splits(names, fromSource, out);
                    return out.iterator();
                }).collect();
    }

    /** With --contents, files larger than the chunk size in chunk tasks; returns the bytes read on each side. */
    private long compareLargeFiles(JavaRDD<EntryPair> pairs, CopyOptions copy, List<Difference> differences, List<Failure> failures) {
        JavaRDD<PairChunk> chunks = pairs.flatMap(p -> CompareJob.chunksOf(p, copy).iterator());
        var tasks = new RddSpread.Job(runner).spread(chunks).dealt(Planner.chunksPerTask(options.batchBytes(), copy.chunkSize()),
                "compare large files");
        if (tasks.isEmpty()) return 0;
        List<CompareOutcome> outcomes = tasks.get().mapShares(part -> List.of(EntryComparer.compareChunks(copy, part))).collect();
        return CompareJob.addChunkOutcomes(outcomes, differences, failures);
    }

    private static Set<String> paths(List<Failure> failures) {
        Set<String> out = new HashSet<>();
        for (Failure f : failures) out.add(f.path());
        return out;
    }
}

package io.sparkdcp.spark;

import io.sparkdcp.copy.BatchResult;
import io.sparkdcp.copy.CopyCounts;
import io.sparkdcp.copy.CopyEngine;
import io.sparkdcp.copy.CopyOptions;
import io.sparkdcp.copy.DirectoryBatch;
import io.sparkdcp.job.DeletionScope;
import io.sparkdcp.job.DirectoriesInFlight;
import io.sparkdcp.job.FilesInFlight;
import io.sparkdcp.job.HeldRoots;
import io.sparkdcp.job.JobOptions;
import io.sparkdcp.job.ListingOptions;
import io.sparkdcp.job.WalkMode;
import io.sparkdcp.job.PhaseRunner;
import io.sparkdcp.job.SourceListing;
import io.sparkdcp.job.SyncJob;
import io.sparkdcp.job.TaskItemLog;
import io.sparkdcp.job.TaskWork;
import io.sparkdcp.plan.Chunk;
import io.sparkdcp.plan.DeletionPlanner;
import io.sparkdcp.plan.FileBatch;
import io.sparkdcp.plan.LargeFile;
import io.sparkdcp.plan.Plan;
import io.sparkdcp.plan.Planner;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.progress.Work;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.report.Listed;
import io.sparkdcp.report.Counted;
import io.sparkdcp.walk.DirectoryBlock;
import io.sparkdcp.walk.Entry;
import org.apache.spark.HashPartitioner;
import org.apache.spark.Partitioner;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Consumer;
import java.util.stream.StreamSupport;

/**
 * A copy (or sync) whose listing and plan stay on the executors, for trees larger than one driver's
 * memory: the walk's blocks are a persisted RDD; each partition cuts its own batches; files with more
 * than one link meet their other names in a shuffle by (dev, ino), so one task copies the first name
 * and links the rest; directories are made in stages by depth, parents first, and finished deepest
 * first; large files are prepared, copied in chunk tasks and finished. The driver holds counts, the
 * capped failures and the accumulators, never an entry. Every stage that writes is a result stage, so
 * its counts and accumulator updates come from exactly one attempt of each task.
 */
public final class ExecutorPlanCopy {
    /**
     * Kept on two executors: a lost executor's partitions need not be computed again (a walk round's
     * would list the source again; it would list the same share, {@link RoundCuts}, but slowly).
     */
    private static final StorageLevel KEPT = StorageLevel.MEMORY_AND_DISK_SER_2();

    /**
     * {@link #KEPT}, but with one copy in local mode: its one block manager has no peer to hold a
     * second, and Spark would warn of that for every block.
     */
    static StorageLevel kept(SparkContext sc) {
        return sc.isLocal() ? StorageLevel.MEMORY_AND_DISK_SER() : KEPT;
    }

    private StorageLevel kept() {
        return kept(runner.context().sc());
    }

    private final JobOptions options;
    private final boolean delete;
    private final SparkPhaseRunner runner;
    private final Consumer<String> log;
    private final Consumer<Work> planned;
    private final TaskFault fault;
    private final long walkEntriesPerTask;
    private final List<JavaRDD<?>> persisted = new ArrayList<>();
    /** This run made DST's root (before the job): a sync then counts it as copied, as a copy does. */
    private boolean destinationCreated;

    public ExecutorPlanCopy(JobOptions options, SparkPhaseRunner runner, Consumer<String> log, Consumer<Work> planned) {
        this(options, false, runner, log, planned, TaskFault.NONE, Long.MAX_VALUE);
    }

    /**
     * @param delete             a sync that first removes what SRC lacks (the options' modes must say sync)
     * @param fault              called after each writing task's work (tests kill attempts with it)
     * @param walkEntriesPerTask a walk task's budget of entries per round (tests force many rounds)
     */
    public ExecutorPlanCopy(JobOptions options, boolean delete, SparkPhaseRunner runner, Consumer<String> log,
                            Consumer<Work> planned, TaskFault fault, long walkEntriesPerTask) {
        if (delete && !options.copy().modes().sync()) throw new IllegalArgumentException("--delete needs the sync mode");
        this.options = options;
        this.delete = delete;
        this.runner = runner;
        this.log = log;
        this.planned = planned;
        this.fault = fault;
        this.walkEntriesPerTask = walkEntriesPerTask;
    }

    /** Tells the job that this run created DST's root (as {@code CopyJob.destinationCreated}). */
    public ExecutorPlanCopy destinationCreated(boolean created) {
        this.destinationCreated = created;
        return this;
    }

    /** Called at the end of each writing task, on the executor. */
    @FunctionalInterface
    public interface TaskFault extends Serializable {
        TaskFault NONE = phase -> {};

        void afterWork(String phase);
    }

    /**
     * True when the copy runs this way: on Spark, with the listing on the executors (--walk distributed,
     * or auto on a cluster; a saved listing is then read there too).
     */
    public static boolean applies(JobOptions options, PhaseRunner runner) {
        WalkMode walk = options.listing().walk();
        // --files-from checks the whole listing for listed paths SRC lacks: that stays on the driver's plan.
        if (options.listing().filter().listed() != null) return false;
        if (options.copy().rootFile() != null) return false; // one entry, listed by a stat on the driver
        return runner instanceof SparkPhaseRunner && (walk == WalkMode.DISTRIBUTED || (walk == WalkMode.AUTO && runner.spansNodes()));
    }

    /** The whole copy, holding DST's lock and with both roots pinned for every task. */
    public CopyReport run() {
        long start = System.nanoTime();
        try (HeldRoots roots = HeldRoots.take(options.copy());
             TaskItemLog failures = TaskItemLog.forDriver(options.copy())) {
            CopyReport report = run(options.withCopy(roots.pinned()), new CopyCounts(failures.log()), start);
            failures.commit();
            return report;
        }
    }

    /** @param counts the driver's, which logs the failures of the job as a whole */
    private CopyReport run(JobOptions job, CopyCounts counts, long start) {
        CopyOptions copy = job.copy();
        ExecutorWalk walk = new ExecutorWalk(runner.context(), runner.parallelism(), job.walkThreads(), walkEntriesPerTask, log);
        ExecutorWalk destinationWalk = new ExecutorWalk(runner.context(), runner.parallelism(), job.walkThreads(), walkEntriesPerTask, log);
        try {
            ListingOptions how = job.listing();
            ExecutorWalk.Walked walked = walk.source(job);
            ExecutorWalk.ListingSummary listing = walked.summary();
            log.accept(String.format("listed %s (%s in files) on the executors: %s in %s", Counted.of(listing.entries(), "entry"),
                    Counted.of(listing.fileBytes(), "byte"), Counted.of(java.util.Arrays.stream(listing.directoriesByDepth()).sum(), "directory"),
                    Counted.of(listing.directoriesByDepth().length, "level")));
            planned.accept(new Work(listing.entries(), listing.fileBytes()));
            if (delete) deleteExtraneous(walked, destinationWalk, job, counts);
            listing.addErrorsTo(counts, f -> f);

            // Kept apart from the listing (about one entry in a hundred): each wave that makes or finishes
            // directories reads these, not the whole listing again.
            JavaRDD<Entry> directories = walked.blocks().filter(b -> b.directory() != null).map(DirectoryBlock::directory)
                    .persist(kept());
            persisted.add(directories);
            JavaPairRDD<PathKey, Boolean> created = makeDirectories(directories, listing.directoriesByDepth(), job, counts);
            copyFiles(walked.blocks(), listing.linkedFiles(), job, counts);
            if (listing.largestFile() > copy.chunkSize()) copyLargeFiles(walked.blocks(), job, counts);
            finishDirectories(directories, created, listing.directoriesByDepth(), job, counts);
            return new CopyReport(PathBytes.display(copy.sourceRoot()), PathBytes.display(copy.destinationRoot()), copy,
                    new Listed(listing.entries(), listing.fileBytes(), listing.complete(),
                            how.listing() != null ? SourceListing.SAVED : SourceListing.EXECUTORS, SourceListing.directory(job)),
                    counts, runner.steps(), System.nanoTime() - start);
        } finally {
            runner.context().setJobDescription(null);
            for (JavaRDD<?> rdd : persisted) rdd.unpersist(false);
            walk.release();
            destinationWalk.release();
        }
    }

    /**
     * sync --delete: walks DST on the executors too, groups both listings by directory path and applies
     * the driver's rule ({@link DeletionPlanner#extraneous}) to each directory there; what lies in or at a
     * mount point inside DST is spared (and each such mount point noticed once); the rest is deleted
     * deepest first, in waves by depth. Nothing is deleted when SRC's walk had errors.
     */
    private void deleteExtraneous(ExecutorWalk.Walked source, ExecutorWalk destinationWalk, JobOptions job, CopyCounts counts) {
        if (!source.summary().complete()) {
            String reason = "deletion refused: the walk of the source reported " + source.summary().errorCount()
                    + " error(s), so what it lacks is unknown; nothing was deleted";
            log.accept(reason);
            counts.addFailure(new Failure(SyncJob.WHOLE_TREE, "delete", "", reason));
            return;
        }
        CopyOptions copy = job.copy();
        ExecutorWalk.Walked destination = destinationWalk.walk(copy.destinationRoot(), false, job.listing().destinationFilter());
        // Unlisted parts of DST cannot be compared: report them; what was listed is still safe to judge.
        destination.summary().addErrorsTo(counts, f -> new Failure(f.path(), f.op(), f.errno(), "destination, not deleted: " + f.message()));
        JavaRDD<Tuple2<Entry, String>> extraneous = extraneous(source.blocks(), destination.blocks(), copy.destinationRoot()).persist(kept());
        persisted.add(extraneous);
        runner.context().setJobDescription("spark-dcp: compare the listings");
        for (String m : extraneous.filter(t -> t._2() != null).map(Tuple2::_2).distinct().collect())
            counts.addNotice(DeletionScope.spared(m));
        JavaRDD<Entry> toDelete = extraneous.filter(t -> t._2() == null).map(Tuple2::_1);
        long[] byDepth = toDelete.map(e -> PathBytes.depth(e.path())).aggregate(new long[0], ExecutorPlanCopy::countDepth,
                ExecutorPlanCopy::addDepths);
        log.accept("deleting " + Counted.of(java.util.Arrays.stream(byDepth).sum(), "destination entry") + " the source does not have");
        List<DepthWave> waves = new ArrayList<>(DepthWave.of(byDepth, job.batchFiles()));
        java.util.Collections.reverse(waves);
        for (DepthWave wave : waves) {
            merge(counts, stage("delete" + wave, tasksOf(wave, toDelete, "delete" + wave), copy,
                    (engine, entries) -> engine.deleteEntries(sorted(entries, true))));
        }
    }

    /**
     * What DST has and SRC lacks, by the driver's rule ({@link DeletionPlanner#extraneous}) applied to the two
     * listings grouped by directory path; each with the mount point inside DST it lies in or at (then it is
     * spared), or null.
     */
    static JavaRDD<Tuple2<Entry, String>> extraneous(JavaRDD<DirectoryBlock> source, JavaRDD<DirectoryBlock> destination,
                                                     byte[] destinationRoot) {
        List<String> mountPoints = DeletionScope.mountPointsBelow(destinationRoot);
        JavaPairRDD<PathKey, DirectoryBlock> there = destination.mapToPair(b -> new Tuple2<>(new PathKey(b.path()), b));
        JavaPairRDD<PathKey, DirectoryBlock> here = source.mapToPair(b -> new Tuple2<>(new PathKey(b.path()), b));
        return there.cogroup(here).flatMap(byPath -> {
            List<Tuple2<Entry, String>> out = new ArrayList<>();
            DirectoryBlock sourceBlock = byPath._2()._2().iterator().hasNext() ? byPath._2()._2().iterator().next() : null;
            for (DirectoryBlock d : byPath._2()._1())
                DeletionPlanner.extraneous(d, sourceBlock, e -> out.add(new Tuple2<>(e, DeletionScope.mountPointOf(e, mountPoints))));
            return out.iterator();
        });
    }

    private static long[] countDepth(long[] counts, int depth) {
        long[] out = counts.length > depth ? counts : java.util.Arrays.copyOf(counts, depth + 1);
        out[depth]++;
        return out;
    }

    private static long[] addDepths(long[] a, long[] b) {
        long[] out = java.util.Arrays.copyOf(a, Math.max(a.length, b.length));
        for (int i = 0; i < b.length; i++) out[i] += b[i];
        return out;
    }

    /**
     * Makes directories wave by wave, parents first; a sync keeps which ones this run created (on the
     * executors) to count them as copied when they are finished. Null for a copy.
     */
    private JavaPairRDD<PathKey, Boolean> makeDirectories(JavaRDD<Entry> directories, long[] byDepth, JobOptions job, CopyCounts counts) {
        boolean sync = job.copy().modes().sync();
        DirectoriesInFlight make = new DirectoriesInFlight(job.threadsPerTask(), false);
        JavaPairRDD<PathKey, Boolean> created = sync && destinationCreated
                ? runner.context().parallelizePairs(List.of(new Tuple2<>(new PathKey(PathBytes.EMPTY), true)), 1) : null;
        for (DepthWave wave : DepthWave.of(byDepth, job.batchFiles())) {
            JavaRDD<Entry> tasks = tasksOf(wave, directories, "make directories" + wave);
            JavaRDD<BatchResult> made = stage("make directories" + wave, tasks, job.copy(),
                    (engine, dirs) -> make.run(engine, sorted(dirs, false)));
            if (sync) made.persist(kept());
            merge(counts, made);
            if (!sync) continue;
            persisted.add(made);
            JavaPairRDD<PathKey, Boolean> here = made.flatMap(r -> r.directoriesCreated().iterator())
                    .mapToPair(p -> new Tuple2<>(new PathKey(p), true));
            created = created == null ? here : created.union(here);
        }
        return created;
    }

    /** Gives directories their metadata, deepest wave first, each task's share deepest first. */
    private void finishDirectories(JavaRDD<Entry> directories, JavaPairRDD<PathKey, Boolean> created, long[] byDepth,
                                   JobOptions job, CopyCounts counts) {
        DirectoriesInFlight finish = new DirectoriesInFlight(job.threadsPerTask(), true);
        List<DepthWave> waves = new ArrayList<>(DepthWave.of(byDepth, job.batchFiles()));
        java.util.Collections.reverse(waves);
        for (DepthWave wave : waves) {
            String phase = "finish directories" + wave;
            if (created == null) {
                merge(counts, stage(phase, tasksOf(wave, directories, phase), job.copy(), (engine, dirs) -> finish.run(engine, sorted(dirs, true))));
                continue;
            }
            JavaRDD<Tuple2<Entry, Boolean>> marked = wave.filter(directories)
                    .mapToPair(e -> new Tuple2<>(new PathKey(e.path()), e))
                    .leftOuterJoin(created)
                    .map(t -> new Tuple2<>(t._2()._1(), t._2()._2().orElse(false)));
            merge(counts, stage(phase, wave.spread(marked), job.copy(), (engine, dirs) -> {
                List<Tuple2<Entry, Boolean>> ordered = new ArrayList<>(dirs);
                ordered.sort(Comparator.comparing(Tuple2::_1, deepestFirst()));
                boolean[] made = new boolean[ordered.size()];
                List<Entry> entries = new ArrayList<>();
                for (int i = 0; i < made.length; i++) {
                    entries.add(ordered.get(i)._1());
                    made[i] = ordered.get(i)._2();
                }
                return engine.finishDirectories(new DirectoryBatch(entries, made));
            }));
        }
    }

    /** Batches cut per partition, and batches of hard-link groups met across partitions: one task each. */
    private void copyFiles(JavaRDD<DirectoryBlock> blocks, long linkedFiles, JobOptions job, CopyCounts counts) {
        int batchFiles = job.batchFiles();
        long batchBytes = job.batchBytes(), chunkSize = job.copy().chunkSize();
        JavaRDD<FileBatch> batches = blocks.mapPartitions(share ->
                new Planner(batchFiles, batchBytes, chunkSize).planPartition(iterable(share)).batches().iterator());
        if (linkedFiles > 0) {
            int groups = (int) Math.max(1, Math.min(Integer.MAX_VALUE, linkedFiles / batchFiles));
            JavaRDD<FileBatch> linkBatches = blocks.mapPartitions(share ->
                            new Planner(batchFiles, batchBytes, chunkSize).planPartition(iterable(share)).linked().iterator())
                    .mapToPair(e -> new Tuple2<>(new InodeKey(e.stat().dev(), e.stat().ino()), e))
                    .groupByKey(groups)
                    .mapPartitions(byInode -> {
                        List<List<Entry>> names = new ArrayList<>();
                        byInode.forEachRemaining(g -> {
                            List<Entry> group = new ArrayList<>();
                            g._2().forEach(group::add);
                            group.sort(Comparator.comparing(Entry::path, PathBytes::compare));
                            names.add(group);
                        });
                        // In an order of their own, not the shuffle's: a partition computed again cuts the same batches.
                        names.sort(Comparator.comparing(g -> g.get(0).path(), PathBytes::compare));
                        return new Planner(batchFiles, batchBytes, chunkSize).linkBatches(names).iterator();
                    });
            batches = batches.union(linkBatches);
        }
        // Not persisted: cut again from the kept blocks by the copy job's first stage. Kept, the batches were a
        // second serialised copy of the listing made just before the copy, still young when its collections came,
        // so each one copied it between survivor spaces and into the old generation (GC seconds the driver's plan
        // had not).
        FilesInFlight copy = new FilesInFlight(job.threadsPerTask());
        runner.context().setJobDescription("spark-dcp: plan the file batches");
        JavaRDD<FileBatch> tasks = oneTaskPer(batches, 1);
        if (tasks == null) return; // a tree of directories alone
        merge(counts, stage("copy files", tasks, job.copy(), (engine, share) -> {
            CopyCounts done = new CopyCounts();
            for (FileBatch b : share) done.merge(copy.run(engine, b).counts());
            return BatchResult.of(done);
        }));
    }

    /** Large files: prepared (created at their size), copied in chunk tasks, then finished unless a chunk failed. */
    private void copyLargeFiles(JavaRDD<DirectoryBlock> blocks, JobOptions job, CopyCounts counts) {
        int batchFiles = job.batchFiles();
        long batchBytes = job.batchBytes(), chunkSize = job.copy().chunkSize();
        JavaRDD<Entry> large = blocks.mapPartitions(share ->
                new Planner(batchFiles, batchBytes, chunkSize).planPartition(iterable(share)).largeFiles().iterator());
        runner.context().setJobDescription("spark-dcp: plan the large files");
        JavaRDD<Entry> prepareTasks = oneTaskPer(large, batchFiles);
        if (prepareTasks == null) return;
        JavaRDD<BatchResult> prepared = stage("prepare large files", prepareTasks, job.copy(), CopyEngine::prepareLargeFiles)
                .persist(kept());
        persisted.add(prepared);
        merge(counts, prepared);
        JavaRDD<LargeFile> toCopy = prepared.flatMap(r -> r.needChunks().iterator());
        JavaRDD<Chunk> chunks = toCopy.flatMap(f -> Plan.chunksOf(List.of(f), chunkSize).iterator());
        JavaRDD<Chunk> chunkTasks = oneTaskPer(chunks, Math.max(1, batchBytes / chunkSize));
        if (chunkTasks == null) return;
        JavaRDD<BatchResult> copied = stage("copy chunks", chunkTasks, job.copy(), CopyEngine::copyChunks).persist(kept());
        persisted.add(copied);
        merge(counts, copied);
        // A file with a failed chunk fails once, and is not finished: nothing half-written counts as copied.
        JavaPairRDD<String, Failure> failed = copied.flatMap(r -> r.chunkFailures().iterator())
                .mapToPair(f -> new Tuple2<>(f.path(), f)).reduceByKey((a, b) -> a);
        List<Failure> kept = failed.values().take(CopyCounts.MAX_FAILURES_KEPT);
        kept.forEach(counts::addFailure);
        if (kept.size() == CopyCounts.MAX_FAILURES_KEPT) counts.addFailuresNotKept(failed.count() - kept.size());
        JavaRDD<LargeFile> complete = toCopy.mapToPair(f -> new Tuple2<>(f.file().display(), f)).subtractByKey(failed).values();
        JavaRDD<LargeFile> finishTasks = oneTaskPer(complete, batchFiles);
        if (finishTasks != null) merge(counts, stage("finish large files", finishTasks, job.copy(), CopyEngine::finishLargeFiles));
    }

    /** The wave's tasks, with the job that numbers them named for the phase they serve. */
    private JavaRDD<Entry> tasksOf(DepthWave wave, JavaRDD<Entry> entries, String phase) {
        runner.context().setJobDescription("spark-dcp: " + phase);
        return wave.tasksOf(entries);
    }

    /** The engine's work on each partition, then the fault hook; named in Spark's UI. */
    private <T> JavaRDD<BatchResult> stage(String phase, JavaRDD<T> tasks, CopyOptions copy, TaskWork<List<T>> work) {
        TaskFault hook = fault;
        runner.context().setJobDescription("spark-dcp: " + phase);
        return runner.onPartitions(tasks, copy, (engine, share) -> {
            BatchResult r = work.run(engine, share);
            hook.afterWork(phase);
            return r;
        });
    }

    /** Runs the stage (one action) and adds its tasks' counts; only counts come back to the driver. */
    private void merge(CopyCounts into, JavaRDD<BatchResult> stage) {
        for (CopyCounts c : runner.counts(stage)) into.merge(c);
    }

    /**
     * Items numbered in order and dealt {@code perTask} to a partition, each partition a task; null when
     * there are none. One job counts each partition's items (as zipWithIndex would, but without its
     * second count of the whole RDD); the numbering itself is done as the items are shuffled.
     */
    private static <T> JavaRDD<T> oneTaskPer(JavaRDD<T> items, long perTask) {
        List<Long> sizes = items.mapPartitions(part -> {
            long size = 0;
            for (; part.hasNext(); part.next()) size++;
            return List.of(size).iterator();
        }).collect();
        long[] first = new long[sizes.size()];
        long n = 0;
        for (int p = 0; p < first.length; p++) {
            first[p] = n;
            n += sizes.get(p);
        }
        if (n == 0) return null;
        IndexPartitioner partitioner = new IndexPartitioner((int) Math.min(Integer.MAX_VALUE, (n + perTask - 1) / perTask), perTask);
        return items.mapPartitionsWithIndex((p, part) -> numbered(first[p], part), true)
                .mapToPair(t -> t).partitionBy(partitioner).values();
    }

    /**
     * The items dealt round-robin to {@code tasks} partitions, as {@code repartition} deals them, but by a
     * number Spark sees as recomputable: a repartition of a shuffle's output is INDETERMINATE, and when such
     * a stage must run again (its map output lost with an executor) after tasks of the next stage ended,
     * Spark aborts the whole job instead of retrying it.
     */
    static <T> JavaRDD<T> dealt(JavaRDD<T> items, int tasks) {
        return items.mapPartitionsWithIndex((p, part) -> numbered(p, part), false)
                .mapToPair(t -> t).partitionBy(new HashPartitioner(tasks)).values();
    }

    /** The items, streamed, each with its number from {@code first} on (no nested class: LayeringTest keeps Tuple2 in this one). */
    private static <T> Iterator<Tuple2<Long, T>> numbered(long first, Iterator<T> items) {
        long[] next = {first};
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(items, Spliterator.ORDERED), false)
                .map(item -> new Tuple2<>(next[0]++, item)).iterator();
    }

    private static <T> Iterable<T> iterable(Iterator<T> it) {
        List<T> all = new ArrayList<>();
        it.forEachRemaining(all::add);
        return all;
    }

    private static List<Entry> sorted(List<Entry> directories, boolean deepestFirst) {
        List<Entry> out = new ArrayList<>(directories);
        // Shallowest first in path order, not the reverse of deepest first (path order reversed): directories are
        // made in the order their files are copied.
        out.sort(deepestFirst ? deepestFirst() : Comparator.<Entry>comparingInt(e -> PathBytes.depth(e.path()))
                .thenComparing(Entry::path, PathBytes::compare));
        return out;
    }

    private static Comparator<Entry> deepestFirst() {
        return Comparator.<Entry>comparingInt(e -> -PathBytes.depth(e.path())).thenComparing(Entry::path, PathBytes::compare);
    }

    /** A path as a key: compared by its bytes. */
    record PathKey(byte[] path) implements Serializable {
        @Override
        public boolean equals(Object o) { return o instanceof PathKey k && java.util.Arrays.equals(path, k.path); }

        @Override
        public int hashCode() { return java.util.Arrays.hashCode(path); }
    }

    record InodeKey(long dev, long ino) implements Serializable {}

    /** Item i goes to partition i / perTask. */
    static final class IndexPartitioner extends Partitioner {
        private final int partitions;
        private final long perTask;

        IndexPartitioner(int partitions, long perTask) {
            this.partitions = partitions;
            this.perTask = perTask;
        }

        @Override
        public int numPartitions() { return partitions; }

        @Override
        public int getPartition(Object key) { return (int) ((Long) key / perTask); }
    }

    /**
     * Consecutive depths whose directories are made (or finished) by one Spark job: a level of more
     * than n directories alone, in tasks of about n; smaller consecutive levels together in one task,
     * level after level. A deep tree of few directories costs a few jobs, not two per level.
     *
     * @param perTask n: the directories of a task of a level of its own
     */
    record DepthWave(int from, int to, int tasks, int perTask) implements Serializable {
        static List<DepthWave> of(long[] byDepth, int n) {
            List<DepthWave> waves = new ArrayList<>();
            int sharedFrom = -1;
            long shared = 0;
            for (int d = 0; d < byDepth.length; d++) {
                long c = byDepth[d];
                if (c > n) {
                    if (sharedFrom >= 0) waves.add(new DepthWave(sharedFrom, d - 1, 1, n));
                    sharedFrom = -1;
                    shared = 0;
                    waves.add(new DepthWave(d, d, (int) Math.min(Integer.MAX_VALUE, (c + n - 1) / n), n));
                    continue;
                }
                if (sharedFrom >= 0 && shared + c > n) {
                    waves.add(new DepthWave(sharedFrom, d - 1, 1, n));
                    sharedFrom = -1;
                    shared = 0;
                }
                if (sharedFrom < 0) sharedFrom = d;
                shared += c;
            }
            if (sharedFrom >= 0) waves.add(new DepthWave(sharedFrom, byDepth.length - 1, 1, n));
            return waves;
        }

        JavaRDD<Entry> filter(JavaRDD<Entry> directories) {
            int lo = from, hi = to;
            return directories.filter(e -> {
                int d = PathBytes.depth(e.path());
                return d >= lo && d <= hi;
            });
        }

        /**
         * One partition per task: one for shared levels; a big level in runs of n taken in the order its files
         * are copied (each share of the listing in path order, the shares in turn, as the copy numbers its
         * batches), as the driver's plan makes its directories, so that XFS lays their inodes out along the copy.
         * Dealt round robin, they lay in no order (measured at 10^6 entries: 52-55 % of path-consecutive
         * directories in one allocation group in inode order, against the driver plan's 100 %; 88-95 % now).
         */
        JavaRDD<Entry> tasksOf(JavaRDD<Entry> entries) {
            JavaRDD<Entry> level = filter(entries);
            if (tasks == 1) return level.coalesce(1);
            JavaRDD<Entry> runs = oneTaskPer(level.mapPartitions(share -> {
                List<Entry> ordered = new ArrayList<>();
                share.forEachRemaining(ordered::add);
                return sorted(ordered, false).iterator();
            }, true), perTask);
            return runs == null ? level.coalesce(1) : runs;
        }

        /** One partition per task: one for shared levels, a fair deal for a big one (a sync's finish, with what this run made). */
        <T> JavaRDD<T> spread(JavaRDD<T> items) {
            return tasks == 1 ? items.coalesce(1) : dealt(items, tasks);
        }

        @Override
        public String toString() {
            return from == to ? ", depth " + from : ", depths " + from + "-" + to;
        }
    }
}

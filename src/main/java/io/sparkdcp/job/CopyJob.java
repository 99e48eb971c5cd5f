package io.sparkdcp.job;

import io.sparkdcp.copy.BatchResult;
import io.sparkdcp.copy.CopyCounts;
import io.sparkdcp.copy.CopyEngine;
import io.sparkdcp.copy.CopyOptions;
import io.sparkdcp.copy.DirectoryBatch;
import io.sparkdcp.plan.Chunk;
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
import io.sparkdcp.walk.Listing;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The driver's side of a copy: walk the source, plan, run each phase through a {@link PhaseRunner},
 * add up the outcomes. Directories are made before any file in them (on Spark level by level before
 * any file; on this JVM's threads as the walk lists them, while the first batches copy), and get their
 * metadata deepest first after every file; large files are prepared, copied in chunks, then finished.
 */
public final class CopyJob {
    private final JobOptions options;
    private final PhaseRunner runner;
    private final Consumer<String> log;
    private final Consumer<Work> planned;
    /** This run made DST's root (before the job): a sync then counts it as copied, as a copy does. */
    private boolean destinationCreated;
    private Consumer<DirectoryBlock> onListed = block -> {};

    public CopyJob(JobOptions options, PhaseRunner runner, Consumer<String> log) {
        this(options, runner, log, total -> {});
    }

    /** @param planned told the whole job's entries and bytes once the source is listed (for progress) */
    public CopyJob(JobOptions options, PhaseRunner runner, Consumer<String> log, Consumer<Work> planned) {
        this.options = options;
        this.runner = runner;
        this.log = log;
        this.planned = planned;
    }

    /** Tells the job that this run created DST's root. */
    public CopyJob destinationCreated(boolean created) {
        this.destinationCreated = created;
        return this;
    }

    /** The whole copy, holding DST's lock and with both roots pinned for every task. */
    public CopyReport run() {
        long start = System.nanoTime();
        try (HeldRoots roots = HeldRoots.take(options.copy());
             TaskItemLog failures = TaskItemLog.forDriver(options.copy())) {
            CopyJob pinned = withOptions(options.withCopy(roots.pinned()));
            CopyCounts counts = new CopyCounts(failures.log());
            CopyReport report = runner instanceof LocalPhaseRunner threads ? pinned.copyWhileListing(threads, counts, start)
                    : pinned.run(pinned.walkSource(), counts, start);
            failures.commit();
            return report;
        }
    }

    /** The same job on other options (the roots pinned). */
    CopyJob withOptions(JobOptions other) {
        return new CopyJob(other, runner, log, planned).destinationCreated(destinationCreated).onListed(onListed);
    }

    /** Called with each directory as it is listed, on the walk's thread, before the copy sees it (tests hold the walk there). */
    CopyJob onListed(Consumer<DirectoryBlock> hook) {
        this.onListed = hook;
        return this;
    }

    /** Lists the source tree (or reads its saved listing); its errors make the listing incomplete. */
    public Listing walkSource() {
        return SourceListing.of(options, runner, log, onListed);
    }

    /**
     * Copies a listing of the source. {@code counts} may already hold outcomes (a sync's deletions);
     * {@code start} is when the job began, for the wall time.
     */
    public CopyReport run(Listing listing, CopyCounts counts, long start) {
        Plan plan = planner().plan(listing);
        listed(listing, plan, 0, counts);
        Set<ByteBuffer> created = rootCreated();
        for (List<List<Entry>> wave : Planner.directoryWaves(plan.directoryLevels(), options.batchFiles(), runner.parallelism(), false))
            mergeMade(counts, created, runner.run("make directories" + depths(wave), wave, options.copy(), makeDirectories()));
        merge(counts, runner.run("copy files", plan.fileBatches(), options.copy(), new FilesInFlight(options.threadsPerTask())));
        return finish(listing, plan, counts, created, start);
    }

    /**
     * A copy on this JVM's threads, which starts while the walk still lists the source: each directory
     * listed is made in DST at once (its parent was listed, so made, before it), and each batch its files
     * fill starts copying, while the walk goes on. Hard-linked and large files wait for the end of the
     * walk; directories are finished deepest first after every file, as in {@link #run(Listing, CopyCounts, long)}.
     */
    private CopyReport copyWhileListing(LocalPhaseRunner threads, CopyCounts counts, long start) {
        CopyOptions copy = options.copy();
        BlockingQueue<DirectoryBlock> listed = new LinkedBlockingQueue<>();
        FutureTask<Listing> walk = new FutureTask<>(() -> SourceListing.of(options, runner, log, block -> {
            onListed.accept(block);
            listed.add(block);
        }));
        Thread walker = new Thread(walk, "walk");
        walker.setDaemon(true); // a job that failed does not wait for its walk to end
        walker.start();
        Planner.Stream stream = planner().stream();
        Set<ByteBuffer> created = rootCreated();
        List<BatchResult> made = new ArrayList<>();
        int handedOut = 0;
        try (LocalPhaseRunner.Phase<FileBatch> files = threads.start("copy files", copy, new FilesInFlight(options.threadsPerTask()))) {
            for (List<DirectoryBlock> arrived = next(listed, walk); !arrived.isEmpty(); arrived = next(listed, walk)) {
                List<Entry> directories = new ArrayList<>();
                for (DirectoryBlock b : arrived) if (b.directory() != null) directories.add(b.directory());
                directories.sort(Comparator.comparingInt(d -> PathBytes.depth(d.path())));
                if (!directories.isEmpty())
                    made.addAll(runner.run("make directories" + depths(List.of(directories)), List.of(directories), copy,
                            makeDirectories()));
                for (DirectoryBlock b : arrived) {
                    for (FileBatch batch : stream.add(b)) {
                        files.submit(batch);
                        handedOut++;
                    }
                }
            }
            Listing listing = walked(walk);
            Plan rest = stream.finish(listing);
            listed(listing, rest, handedOut, counts);
            mergeMade(counts, created, made);
            rest.fileBatches().forEach(files::submit);
            merge(counts, files.finish());
            return finish(listing, rest, counts, created, start);
        }
    }

    /** The directories listed since the last call, waiting for one; none once the walk has ended and all were taken. */
    private static List<DirectoryBlock> next(BlockingQueue<DirectoryBlock> listed, Future<Listing> walk) {
        List<DirectoryBlock> arrived = new ArrayList<>();
        try {
            while (arrived.isEmpty()) {
                boolean ended = walk.isDone(); // before draining: an ended walk has queued all it listed
                listed.drainTo(arrived);
                if (ended) break;
                DirectoryBlock b = arrived.isEmpty() ? listed.poll(10, TimeUnit.MILLISECONDS) : null;
                if (b != null) arrived.add(b);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("copy interrupted while the walk listed the source", e);
        }
        return arrived;
    }

    /** The walk's listing, or what stopped it (a source root that cannot be opened), as the walk threw it. */
    private static Listing walked(FutureTask<Listing> walk) {
        try {
            return walk.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("copy interrupted while the walk listed the source", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) throw r;
            if (e.getCause() instanceof Error r) throw r;
            throw new IllegalStateException("the walk failed: " + e.getCause(), e.getCause());
        }
    }

    private Planner planner() {
        return new Planner(options.batchFiles(), options.batchBytes(), options.copy().chunkSize());
    }

    private DirectoriesInFlight makeDirectories() {
        return new DirectoriesInFlight(options.threadsPerTask(), false);
    }

    /** The listing is complete: said in the log, its totals told for progress, its errors counted first. */
    private void listed(Listing listing, Plan plan, int batchesHandedOut, CopyCounts counts) {
        log.accept(String.format("listed %s (%s in files): %s, %s, %s", Counted.of(plan.totalEntries(), "entry"),
                Counted.of(plan.totalBytes(), "byte"), Counted.of(batchesHandedOut + plan.fileBatches().size(), "file batch"),
                Counted.of(plan.directoryLevels().size(), "directory level"), Counted.of(plan.largeFiles().size(), "large file")));
        planned.accept(new Work(plan.totalEntries(), plan.totalBytes()));
        for (Failure f : listing.errors()) counts.addFailure(f);
    }

    private Set<ByteBuffer> rootCreated() {
        Set<ByteBuffer> created = new HashSet<>();
        if (destinationCreated) created.add(ByteBuffer.wrap(PathBytes.EMPTY));
        return created;
    }

    private static void mergeMade(CopyCounts counts, Set<ByteBuffer> created, List<BatchResult> made) {
        for (BatchResult r : made) {
            counts.merge(r.counts());
            for (byte[] p : r.directoriesCreated()) created.add(ByteBuffer.wrap(p));
        }
    }

    /** After the batches: large files, then directories finished deepest first, and the report. */
    private CopyReport finish(Listing listing, Plan plan, CopyCounts counts, Set<ByteBuffer> created, long start) {
        CopyOptions copy = options.copy();
        copyLargeFiles(plan.largeFiles(), copy, counts);
        for (List<List<Entry>> wave : Planner.directoryWaves(plan.directoryLevels(), options.batchFiles(), runner.parallelism(), true)) {
            String phase = "finish directories" + depths(wave);
            if (copy.modes().sync()) merge(counts, runner.run(phase, markCreated(wave, created), copy, CopyEngine::finishDirectories));
            else merge(counts, runner.run(phase, wave, copy, new DirectoriesInFlight(options.threadsPerTask(), true)));
        }
        return new CopyReport(PathBytes.display(copy.sourceShown()), PathBytes.display(copy.destinationShown()), copy,
                new Listed(plan.totalEntries(), plan.totalBytes(), listing.complete(), SourceListing.listedBy(options, runner),
                        SourceListing.directory(options)), counts, runner.steps(), System.nanoTime() - start);
    }

    private static List<DirectoryBatch> markCreated(List<List<Entry>> tasks, Set<ByteBuffer> created) {
        List<DirectoryBatch> batches = new ArrayList<>();
        for (List<Entry> task : tasks) {
            boolean[] made = new boolean[task.size()];
            for (int i = 0; i < made.length; i++) made[i] = created.contains(ByteBuffer.wrap(task.get(i).path()));
            batches.add(new DirectoryBatch(task, made));
        }
        return batches;
    }

    /** ", depth 3" or ", depths 0-5": which levels a wave of directory tasks covers. */
    private static String depths(List<List<Entry>> wave) {
        int min = Integer.MAX_VALUE, max = 0;
        for (List<Entry> task : wave)
            for (Entry e : task) {
                int d = PathBytes.depth(e.path());
                min = Math.min(min, d);
                max = Math.max(max, d);
            }
        return min == max ? ", depth " + min : ", depths " + min + "-" + max;
    }

    private void copyLargeFiles(List<Entry> large, CopyOptions copy, CopyCounts counts) {
        if (large.isEmpty()) return;
        List<List<Entry>> groups = Planner.partition(large, Math.max(1, options.batchFiles()));
        List<LargeFile> toCopy = new ArrayList<>();
        for (BatchResult r : runner.run("prepare large files", groups, copy, CopyEngine::prepareLargeFiles)) {
            counts.merge(r.counts());
            toCopy.addAll(r.needChunks());
        }
        int chunksPerTask = (int) Math.max(1, options.batchBytes() / copy.chunkSize());
        List<List<Chunk>> chunkTasks = Planner.partition(Plan.chunksOf(toCopy, copy.chunkSize()), chunksPerTask);
        Map<String, Failure> failedFiles = new LinkedHashMap<>();
        for (BatchResult r : runner.run("copy chunks", chunkTasks, copy, CopyEngine::copyChunks)) {
            counts.merge(r.counts());
            for (Failure f : r.chunkFailures()) failedFiles.putIfAbsent(f.path(), f);
        }
        failedFiles.values().forEach(counts::addFailure);
        List<LargeFile> complete = new ArrayList<>();
        for (LargeFile f : toCopy) if (!failedFiles.containsKey(f.file().display())) complete.add(f);
        merge(counts, runner.run("finish large files", Planner.partition(complete, options.batchFiles()), copy,
                CopyEngine::finishLargeFiles));
    }

    private static void merge(CopyCounts into, List<BatchResult> results) {
        for (BatchResult r : results) into.merge(r.counts());
    }
}

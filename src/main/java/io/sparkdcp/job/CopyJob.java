package io.sparkdcp.job;

import io.sparkdcp.copy.BatchResult;
import io.sparkdcp.copy.CopyCounts;
import io.sparkdcp.copy.CopyEngine;
import io.sparkdcp.copy.CopyOptions;
import io.sparkdcp.copy.DirectoryBatch;
import io.sparkdcp.plan.Chunk;
import io.sparkdcp.plan.LargeFile;
import io.sparkdcp.plan.Plan;
import io.sparkdcp.plan.Planner;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.progress.Work;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.walk.Entry;
import io.sparkdcp.walk.Listing;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The driver's side of a copy: walk the source, plan, run each phase through a {@link PhaseRunner},
 * add up the outcomes. Directories are made level by level before any file, and get their
 * metadata deepest first after every file; large files are prepared, copied in chunks, then finished.
 */
public final class CopyJob {
    private final JobOptions options;
    private final PhaseRunner runner;
    private final Consumer<String> log;
    private final Consumer<Work> planned;
    /** This run made DST's root (before the job): a sync then counts it as copied, as a copy does. */
    private boolean destinationCreated;

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
            CopyReport report = pinned.run(pinned.walkSource(), new CopyCounts(failures.log()), start);
            failures.commit();
            return report;
        }
    }

    /** The same job on other options (the roots pinned). */
    CopyJob withOptions(JobOptions other) {
        return new CopyJob(other, runner, log, planned).destinationCreated(destinationCreated);
    }

    /** Lists the source tree (or reads its saved listing); its errors make the listing incomplete. */
    public Listing walkSource() {
        return SourceListing.of(options, runner, log);
    }

    /**
     * Copies a listing of the source. {@code counts} may already hold outcomes (a sync's deletions);
     * {@code start} is when the job began, for the wall time.
     */
    public CopyReport run(Listing listing, CopyCounts counts, long start) {
        CopyOptions copy = options.copy();
        Plan plan = new Planner(options.batchFiles(), options.batchBytes(), copy.chunkSize()).plan(listing);
        log.accept(String.format("listed %,d entries (%,d bytes in files): %d file batches, %d directory levels, %d large files",
                plan.totalEntries(), plan.totalBytes(), plan.fileBatches().size(), plan.directoryLevels().size(),
                plan.largeFiles().size()));
        planned.accept(new Work(plan.totalEntries(), plan.totalBytes()));

        for (Failure f : listing.errors()) counts.addFailure(f);

        List<List<Entry>> levels = plan.directoryLevels();
        Set<ByteBuffer> created = new HashSet<>();
        if (destinationCreated) created.add(ByteBuffer.wrap(PathBytes.EMPTY));
        for (List<List<Entry>> wave : Planner.directoryWaves(levels, options.batchFiles(), false)) {
            for (BatchResult r : runner.run("make directories" + depths(wave), wave, copy,
                    new DirectoriesInFlight(options.threadsPerTask(), false))) {
                counts.merge(r.counts());
                for (byte[] p : r.directoriesCreated()) created.add(ByteBuffer.wrap(p));
            }
        }
        merge(counts, runner.run("copy files", plan.fileBatches(), copy, new FilesInFlight(options.threadsPerTask())));
        copyLargeFiles(plan.largeFiles(), copy, counts);
        for (List<List<Entry>> wave : Planner.directoryWaves(levels, options.batchFiles(), true)) {
            String phase = "finish directories" + depths(wave);
            if (copy.modes().sync()) merge(counts, runner.run(phase, markCreated(wave, created), copy, CopyEngine::finishDirectories));
            else merge(counts, runner.run(phase, wave, copy, new DirectoriesInFlight(options.threadsPerTask(), true)));
        }
        return new CopyReport(PathBytes.display(copy.sourceShown()), PathBytes.display(copy.destinationShown()),
                copy.xattrs().word(), copy.xattrAccess().name().toLowerCase(), copy.projectIds(), counts, runner.steps(),
                plan.totalEntries(), plan.totalBytes(), System.nanoTime() - start, listing.complete(), copy.modes(),
                SourceListing.listedBy(options, runner), SourceListing.directory(options), copy.throttle());
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

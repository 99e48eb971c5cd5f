package io.sparkdcp.job;

import io.sparkdcp.copy.BatchResult;
import io.sparkdcp.copy.CopyCounts;
import io.sparkdcp.copy.CopyEngine;
import io.sparkdcp.copy.CopyOptions;
import io.sparkdcp.copy.Failure;
import io.sparkdcp.plan.Chunk;
import io.sparkdcp.plan.Plan;
import io.sparkdcp.plan.Planner;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.progress.Work;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.walk.Entry;
import io.sparkdcp.walk.Listing;
import io.sparkdcp.walk.TreeWalker;

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

    public CopyReport run() {
        long start = System.nanoTime();
        CopyOptions copy = options.copy();
        Listing listing = new TreeWalker(options.walkThreads(), copy.projectIds()).walk(copy.sourceRoot());
        Plan plan = new Planner(options.batchFiles(), options.batchBytes(), copy.chunkSize()).plan(listing.entries());
        log.accept(String.format("listed %,d entries (%,d bytes in files): %d file batches, %d directory levels, %d large files",
                plan.totalEntries(), plan.totalBytes(), plan.fileBatches().size(), plan.directoryLevels().size(),
                plan.largeFiles().size()));
        planned.accept(new Work(plan.totalEntries(), plan.totalBytes()));

        CopyCounts counts = new CopyCounts();
        for (Failure f : listing.errors()) counts.addFailure(f);

        List<List<Entry>> levels = plan.directoryLevels();
        for (int depth = 0; depth < levels.size(); depth++) {
            merge(counts, runner.run("make directories, depth " + depth, Planner.partition(levels.get(depth), options.batchFiles()),
                    copy, CopyEngine::makeDirectories));
        }
        merge(counts, runner.run("copy files", plan.fileBatches(), copy, new FilesInFlight(copy, options.filesInFlight())));
        copyLargeFiles(plan.largeFiles(), copy, counts);
        for (int depth = levels.size() - 1; depth >= 0; depth--) {
            merge(counts, runner.run("finish directories, depth " + depth, Planner.partition(levels.get(depth), options.batchFiles()),
                    copy, CopyEngine::finishDirectories));
        }
        return new CopyReport(PathBytes.display(copy.sourceRoot()), PathBytes.display(copy.destinationRoot()),
                copy.xattrs().word(), copy.access().name().toLowerCase(), copy.projectIds(), counts, runner.steps(),
                plan.totalEntries(), plan.totalBytes(), System.nanoTime() - start, listing.complete());
    }

    private void copyLargeFiles(List<Entry> large, CopyOptions copy, CopyCounts counts) {
        if (large.isEmpty()) return;
        List<List<Entry>> groups = Planner.partition(large, Math.max(1, options.batchFiles()));
        Set<String> needChunks = new HashSet<>();
        for (BatchResult r : runner.run("prepare large files", groups, copy, CopyEngine::prepareLargeFiles)) {
            counts.merge(r.counts());
            for (byte[] p : r.needChunks()) needChunks.add(PathBytes.display(p));
        }
        List<Entry> toCopy = large.stream().filter(e -> needChunks.contains(e.display())).toList();
        int chunksPerTask = (int) Math.max(1, options.batchBytes() / copy.chunkSize());
        List<List<Chunk>> chunkTasks = Planner.partition(Plan.chunksOf(toCopy, copy.chunkSize()), chunksPerTask);
        Map<String, Failure> failedFiles = new LinkedHashMap<>();
        for (BatchResult r : runner.run("copy chunks", chunkTasks, copy, CopyEngine::copyChunks)) {
            counts.merge(r.counts());
            for (Failure f : r.chunkFailures()) failedFiles.putIfAbsent(f.path(), f);
        }
        failedFiles.values().forEach(counts::addFailure);
        List<Entry> complete = new ArrayList<>();
        for (Entry e : toCopy) if (!failedFiles.containsKey(e.display())) complete.add(e);
        merge(counts, runner.run("finish large files", Planner.partition(complete, options.batchFiles()), copy,
                CopyEngine::finishLargeFiles));
    }

    private static void merge(CopyCounts into, List<BatchResult> results) {
        for (BatchResult r : results) into.merge(r.counts());
    }
}

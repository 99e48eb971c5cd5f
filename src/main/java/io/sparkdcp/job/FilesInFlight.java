package io.sparkdcp.job;

import io.sparkdcp.copy.BatchResult;
import io.sparkdcp.copy.CopyCounts;
import io.sparkdcp.copy.CopyEngine;
import io.sparkdcp.copy.CopyOptions;
import io.sparkdcp.plan.FileBatch;
import io.sparkdcp.walk.Entry;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * Copies one task's batch with several files in flight: the entries are cut into contiguous
 * slices (the batch is sorted by parent, so each slice reuses its open directories), each copied
 * by its own thread with its own engine; the hard links follow once every slice is done, since
 * their targets may sit in any slice. On a file system where each metadata call is a round trip,
 * this is what lets a few cores keep many calls outstanding.
 *
 * @param threads files in flight per task; 1 copies the batch in the task's own thread
 */
public record FilesInFlight(CopyOptions options, int threads) implements TaskWork<FileBatch> {
    public FilesInFlight {
        if (threads < 1) throw new IllegalArgumentException("--threads-per-task must be at least 1");
    }

    @Override
    public BatchResult run(CopyEngine engine, FileBatch batch) {
        List<Entry> entries = batch.entries();
        List<List<Entry>> slices = slices(entries, threads);
        if (slices.size() <= 1) return engine.copyFiles(entries, batch.links());
        LockedRecorder shared = new LockedRecorder(engine.steps(), engine.progress());
        CopyCounts counts = new CopyCounts();
        List<Callable<BatchResult>> calls = new ArrayList<>();
        for (List<Entry> slice : slices) {
            calls.add(() -> {
                try (CopyEngine own = new CopyEngine(options, shared, shared)) {
                    return own.copyFiles(slice, List.of());
                }
            });
        }
        for (BatchResult r : ParallelCalls.run("batch " + batch.id(), slices.size(), calls)) counts.merge(r.counts());
        if (!batch.links().isEmpty()) {
            try (CopyEngine own = new CopyEngine(options, shared, shared)) {
                counts.merge(own.copyFiles(List.of(), batch.links()).counts());
            }
        }
        return BatchResult.of(counts);
    }

    /** At most n contiguous slices of nearly equal size, none empty. */
    static <T> List<List<T>> slices(List<T> items, int n) {
        int count = Math.min(n, items.size());
        List<List<T>> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            out.add(items.subList(items.size() * i / count, items.size() * (i + 1) / count));
        }
        return out;
    }
}

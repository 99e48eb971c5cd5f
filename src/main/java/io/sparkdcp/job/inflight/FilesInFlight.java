package io.sparkdcp.job.inflight;

import io.sparkdcp.copy.BatchResult;
import io.sparkdcp.copy.CopyCounts;
import io.sparkdcp.copy.CopyEngine;
import io.sparkdcp.job.exec.TaskWork;
import io.sparkdcp.plan.FileBatch;
import io.sparkdcp.plan.HardLink;
import io.sparkdcp.walk.Entry;

import java.util.List;

/**
 * Copies one task's batch with several files in flight: the entries are cut into contiguous
 * slices (the batch is sorted by parent, so each slice reuses its open directories), each copied
 * by its own thread with its own engine; the hard links follow once every slice is done, since
 * their targets may sit in any slice. On a file system where each metadata call is a round trip,
 * this is what lets a few cores keep many calls outstanding.
 *
 * @param threadsPerTask files in flight per task; 1 copies the batch in the task's own thread
 */
public record FilesInFlight(int threadsPerTask) implements TaskWork<FileBatch> {

    @Override
    public BatchResult run(CopyEngine engine, FileBatch batch) {
        List<Entry> entries = batch.entries();
        List<List<Entry>> slices = SlicesInFlight.slices(entries, threadsPerTask);
        if (slices.size() <= 1) return engine.copyFiles(entries, batch.links());
        CopyCounts counts = new CopyCounts();
        TaskWork<List<Entry>> copy = (own, slice) -> own.copyFiles(slice, List.of());
        for (BatchResult r : SlicesInFlight.run("batch " + batch.id(), engine, slices, copy)) counts.merge(r.counts());
        if (!batch.links().isEmpty()) {
            TaskWork<List<HardLink>> link = (own, links) -> own.copyFiles(List.of(), links);
            counts.merge(SlicesInFlight.run("links of batch " + batch.id(), engine, List.of(batch.links()), link).get(0).counts());
        }
        return BatchResult.of(counts);
    }
}

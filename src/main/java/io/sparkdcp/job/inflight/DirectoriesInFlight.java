package io.sparkdcp.job.inflight;

import io.sparkdcp.copy.BatchResult;
import io.sparkdcp.copy.CopyCounts;
import io.sparkdcp.copy.CopyEngine;
import io.sparkdcp.job.exec.TaskWork;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.walk.Entry;

import java.util.ArrayList;
import java.util.List;

/**
 * Makes or finishes one task's directories with several in flight. The task's list runs level
 * by level, in its order (parents before children to make, deepest first to finish), and each
 * level's directories, independent of each other, are cut into slices made or finished at once.
 *
 * @param threadsPerTask directories in flight per task; 1 works in the task's own thread
 * @param finish  false to make the directories, true to give them their metadata
 */
public record DirectoriesInFlight(int threadsPerTask, boolean finish) implements TaskWork<List<Entry>> {

    @Override
    public BatchResult run(CopyEngine engine, List<Entry> directories) {
        if (threadsPerTask == 1) return step(engine, directories);
        CopyCounts counts = new CopyCounts();
        List<byte[]> created = new ArrayList<>();
        for (List<Entry> level : levels(directories)) {
            List<List<Entry>> slices = SlicesInFlight.slices(level, threadsPerTask);
            for (BatchResult r : SlicesInFlight.run("directories", engine, slices, this::step)) {
                counts.merge(r.counts());
                created.addAll(r.directoriesCreated());
            }
        }
        return new BatchResult(counts, List.of(), List.of(), created);
    }

    private BatchResult step(CopyEngine engine, List<Entry> directories) {
        return finish ? engine.finishDirectories(directories) : engine.makeDirectories(directories);
    }

    /** Runs of one depth, in the list's order. */
    static List<List<Entry>> levels(List<Entry> directories) {
        List<List<Entry>> out = new ArrayList<>();
        int depth = -1;
        for (Entry e : directories) {
            int d = PathBytes.depth(e.path());
            if (d != depth || out.isEmpty()) out.add(new ArrayList<>());
            depth = d;
            out.get(out.size() - 1).add(e);
        }
        return out;
    }
}

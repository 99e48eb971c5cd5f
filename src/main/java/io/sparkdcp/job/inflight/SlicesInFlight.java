package io.sparkdcp.job.inflight;

import io.sparkdcp.copy.BatchResult;
import io.sparkdcp.copy.CopyEngine;
import io.sparkdcp.job.exec.ParallelCalls;
import io.sparkdcp.job.exec.TaskWork;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * Runs a task's work in slices at once, each slice in its own thread on a {@link CopyEngine#slice}
 * of the task's engine (the task's roots, opened once, and what it knows of destination
 * directories), all recording into the task's steps and progress under one lock. On a file system
 * where each metadata call is a round trip, this is what lets a few cores keep many calls outstanding.
 */
final class SlicesInFlight {
    private SlicesInFlight() {}

    static <T> List<BatchResult> run(String what, CopyEngine task, List<T> slices, TaskWork<T> work) {
        LockedRecorder shared = new LockedRecorder(task.steps(), task.progress());
        List<Callable<BatchResult>> calls = new ArrayList<>();
        for (T slice : slices) {
            calls.add(() -> {
                try (CopyEngine own = task.slice(shared, shared)) {
                    return work.run(own, slice);
                }
            });
        }
        return ParallelCalls.run(what, slices.size(), calls);
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

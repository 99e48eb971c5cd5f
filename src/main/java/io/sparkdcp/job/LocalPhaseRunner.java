package io.sparkdcp.job;

import io.sparkdcp.copy.BatchResult;
import io.sparkdcp.copy.CopyEngine;
import io.sparkdcp.copy.CopyOptions;
import io.sparkdcp.copy.ProgressRecorder;
import io.sparkdcp.copy.StepStats;
import io.sparkdcp.progress.Work;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** Runs tasks on a pool of threads in this JVM: the engine's tests, and copies without Spark. */
public final class LocalPhaseRunner implements PhaseRunner {
    private final int threads;
    /** Numbers the phases, which name the item log's parts. */
    private final AtomicInteger phases = new AtomicInteger();
    private final StepStats totals = new StepStats();
    private final AtomicLong entriesDone = new AtomicLong();
    private final AtomicLong bytesDone = new AtomicLong();
    private final ProgressRecorder progress = (entries, bytes) -> {
        entriesDone.addAndGet(entries);
        bytesDone.addAndGet(bytes);
    };

    public LocalPhaseRunner(int threads) {
        this.threads = threads;
    }

    @Override
    public <T> List<BatchResult> run(String phase, List<T> tasks, CopyOptions options, TaskWork<T> work) {
        List<Callable<BatchResult>> calls = new ArrayList<>();
        int phaseNumber = phases.incrementAndGet();
        for (int i = 0; i < tasks.size(); i++) {
            T task = tasks.get(i);
            int index = i;
            calls.add(() -> {
                StepStats local = new StepStats();
                BatchResult result;
                // A part per task, as on Spark: the same log whichever runner ran the copy.
                try (TaskItemLog items = TaskItemLog.open(options, phaseNumber, index, 0, false);
                     CopyEngine engine = new CopyEngine(options, local, progress, items.log())) {
                    result = work.run(engine, task);
                    items.commit();
                }
                synchronized (totals) {
                    totals.merge(local);
                }
                return result;
            });
        }
        return ParallelCalls.run(phase, threads, calls);
    }

    @Override
    public <T, R> List<R> map(String phase, List<T> tasks, TaskFunction<T, R> function) {
        List<Callable<R>> calls = new ArrayList<>();
        for (T task : tasks) calls.add(() -> function.apply(task));
        return ParallelCalls.run(phase, threads, calls);
    }

    @Override
    public int parallelism() { return threads; }

    @Override
    public boolean spansNodes() { return false; }

    @Override
    public Work done() {
        return new Work(entriesDone.get(), bytesDone.get());
    }

    @Override
    public StepStats steps() {
        synchronized (totals) {
            return totals.copy();
        }
    }
}

package io.sparkdcp.job;

import io.sparkdcp.copy.BatchResult;
import io.sparkdcp.copy.CopyEngine;
import io.sparkdcp.copy.CopyOptions;
import io.sparkdcp.copy.ItemLog;
import io.sparkdcp.copy.ProgressRecorder;
import io.sparkdcp.copy.StepStats;
import io.sparkdcp.progress.Work;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;

/** Runs tasks on a pool of threads in this JVM: the engine's tests, and copies without Spark. */
public final class LocalPhaseRunner implements PhaseRunner {
    private final int threads;
    private final ItemLog items;
    private final StepStats totals = new StepStats();
    private final AtomicLong entriesDone = new AtomicLong();
    private final AtomicLong bytesDone = new AtomicLong();
    private final ProgressRecorder progress = (entries, bytes) -> {
        entriesDone.addAndGet(entries);
        bytesDone.addAndGet(bytes);
    };

    public LocalPhaseRunner(int threads) {
        this(threads, ItemLog.NONE);
    }

    /** @param items told what was done with each entry, from several threads at once */
    public LocalPhaseRunner(int threads, ItemLog items) {
        this.threads = threads;
        this.items = items;
    }

    @Override
    public <T> List<BatchResult> run(String phase, List<T> tasks, CopyOptions options, TaskWork<T> work) {
        List<Callable<BatchResult>> calls = new ArrayList<>();
        for (T task : tasks) {
            calls.add(() -> {
                StepStats local = new StepStats();
                BatchResult result;
                try (CopyEngine engine = new CopyEngine(options, local, progress, items)) {
                    result = work.run(engine, task);
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

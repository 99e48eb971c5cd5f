package io.sparkdcp.job.exec;

import io.sparkdcp.copy.BatchResult;
import io.sparkdcp.copy.CopyEngine;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.copy.ProgressRecorder;
import io.sparkdcp.copy.steps.StepStats;
import io.sparkdcp.itemlog.TaskItemLog;
import io.sparkdcp.progress.Work;
import io.sparkdcp.report.Counted;
import io.sparkdcp.walk.DirectoryBlock;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/** Runs tasks on a pool of threads in this JVM: the engine's tests, and copies without Spark. */
public final class LocalPhaseRunner implements PhaseRunner {
    private final int threads;
    /** Numbers the phases, which name the item log's parts. */
    private final AtomicInteger phases = new AtomicInteger();
    private final StepStats totals = new StepStats();
    private final AtomicLong entriesDone = new AtomicLong();
    private final AtomicLong bytesDone = new AtomicLong();
    private final AtomicLong bytesReplanned = new AtomicLong();
    private final ProgressRecorder progress = new ProgressRecorder() {
        @Override
        public void done(long entries, long bytes) {
            entriesDone.addAndGet(entries);
            bytesDone.addAndGet(bytes);
        }

        @Override
        public void replanned(long bytes) {
            bytesReplanned.addAndGet(bytes);
        }
    };

    public LocalPhaseRunner(int threads) {
        this.threads = threads;
    }

    @Override
    public <T> List<BatchResult> run(String phase, List<T> tasks, CopyOptions options, TaskWork<T> work) {
        try (TaskFeed<T> running = start(phase, options, work)) {
            tasks.forEach(running::submit);
            return running.finish();
        }
    }

    /** Listed by a walk on a thread of its own, in arrivals that the copy starts on while it lists. */
    @Override
    public Listed list(JobOptions options, Consumer<String> log, Consumer<DirectoryBlock> onListed, long walkEntriesPerTask) {
        return new DriverListed(this, options, log, onListed, true);
    }

    /** Each task starts as soon as one of this runner's threads is free (a copy's file batches while the walk still lists). */
    @Override
    public <T> TaskFeed<T> start(String phase, CopyOptions options, TaskWork<T> work) {
        return new Phase<>(phase, phases.incrementAndGet(), options, work);
    }

    private final class Phase<T> implements TaskFeed<T> {
        private final String name;
        private final int number;
        private final CopyOptions options;
        private final TaskWork<T> work;
        private final ExecutorService pool = Executors.newFixedThreadPool(threads);
        private final List<Future<BatchResult>> results = new ArrayList<>();

        private Phase(String name, int number, CopyOptions options, TaskWork<T> work) {
            this.name = name;
            this.number = number;
            this.options = options;
            this.work = work;
        }

        @Override
        public void submit(T task) {
            int index = results.size();
            results.add(pool.submit(() -> runTask(number, index, task)));
        }

        @Override
        public List<BatchResult> finish() {
            return ParallelCalls.results(name, results);
        }

        private BatchResult runTask(int phaseNumber, int index, T task) {
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
        }

        @Override
        public void close() {
            pool.shutdownNow();
        }
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
    public String where() { return "in parallel tasks on " + Counted.of(threads, "thread"); }

    @Override
    public boolean spansNodes() { return false; }

    @Override
    public Work done() {
        return new Work(entriesDone.get(), bytesDone.get(), bytesReplanned.get());
    }

    @Override
    public StepStats steps() {
        synchronized (totals) {
            return totals.copy();
        }
    }
}

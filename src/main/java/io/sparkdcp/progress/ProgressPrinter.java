package io.sparkdcp.progress;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Prints a {@link ProgressLine} at a fixed interval on a daemon thread, from the moment the totals
 * are known (after the walk) until closed.
 */
public final class ProgressPrinter implements AutoCloseable {
    private final Supplier<Work> done;
    private final Consumer<String> out;
    private final ScheduledExecutorService timer;
    private volatile Work total;
    private volatile long startNanos;
    private volatile Work before = Work.NONE;

    public ProgressPrinter(Duration interval, Supplier<Work> done, Consumer<String> out) {
        if (interval.isNegative() || interval.isZero()) throw new IllegalArgumentException("progress interval must be positive");
        this.done = done;
        this.out = out;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "spark-dcp-progress");
            t.setDaemon(true);
            return t;
        });
        long millis = interval.toMillis();
        timer.scheduleAtFixedRate(this::print, millis, millis, TimeUnit.MILLISECONDS);
    }

    /** The copy's totals: lines are printed from now on, with rates measured from now. */
    public void planned(Work total) {
        before = done.get(); // a copy on threads has begun while the walk listed
        startNanos = System.nanoTime();
        this.total = total;
    }

    private void print() {
        Work t = total;
        if (t == null) return;
        out.accept(ProgressLine.format(done.get(), before, t, System.nanoTime() - startNanos));
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}

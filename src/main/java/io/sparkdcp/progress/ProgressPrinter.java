package io.sparkdcp.progress;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Prints a {@link ProgressLine} at a fixed interval on a daemon thread, from the moment the totals are known
 * (after the walk) until closed, and a last one when the copy is over ({@link #finished}) if it printed any
 * (a copy shorter than the interval adds no line to a log). What is done is
 * sampled about once a second, and the rates are those of the last {@link #WINDOW}: a copy that slows or
 * speeds up shows it within seconds, and its time left follows.
 */
public final class ProgressPrinter implements AutoCloseable {
    /** How far back the rates look. */
    static final Duration WINDOW = Duration.ofSeconds(10);
    private static final long SAMPLE_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final Supplier<Work> done;
    private final Consumer<String> out;
    private final long windowNanos;
    private final ScheduledExecutorService timer;
    /** Samples a line is printed at. */
    private final int samplesPerLine;
    /** Samples of the window, oldest first: the oldest at or before the window's start. Guarded by this. */
    private final Deque<Sample> samples = new ArrayDeque<>();
    private Work total;
    private int sampled;
    /** Whether a line was printed: only then does the copy's end print its last one. */
    private boolean printed;

    private record Sample(long nanos, Work done) {}

    public ProgressPrinter(Duration interval, Supplier<Work> done, Consumer<String> out) {
        this(interval, WINDOW, done, out);
    }

    /** @param window how far back the rates look */
    ProgressPrinter(Duration interval, Duration window, Supplier<Work> done, Consumer<String> out) {
        if (interval.isNegative() || interval.isZero()) throw new IllegalArgumentException("progress interval must be positive");
        this.done = done;
        this.out = out;
        this.windowNanos = window.toNanos();
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "spark-dcp-progress");
            t.setDaemon(true);
            return t;
        });
        long nanos = interval.toNanos();
        samplesPerLine = (int) Math.max(1, Math.min(Integer.MAX_VALUE, (nanos + SAMPLE_NANOS - 1) / SAMPLE_NANOS));
        long sampleNanos = nanos / samplesPerLine;
        timer.scheduleAtFixedRate(this::tick, sampleNanos, sampleNanos, TimeUnit.NANOSECONDS);
    }

    /** The copy's totals (the listing's): lines are printed from now on, with rates measured from now. */
    public synchronized void planned(Work total) {
        samples.clear();
        samples.add(new Sample(System.nanoTime(), done.get())); // a copy on threads has begun while the walk listed
        sampled = 0;
        this.total = total;
    }

    /** The copy is over: its last line, with what was done in all, after the lines before it. Nothing is printed after it. */
    public void finished() {
        stop();
        synchronized (this) {
            if (total != null && printed) out.accept(line(sample()));
            total = null;
        }
    }

    private synchronized void tick() {
        if (total == null) return;
        Sample now = sample();
        if (++sampled % samplesPerLine != 0) return;
        out.accept(line(now));
        printed = true;
    }

    /** Takes a sample into the window, dropping those the window has passed. */
    private Sample sample() {
        Sample now = new Sample(System.nanoTime(), done.get());
        samples.add(now);
        long start = now.nanos() - windowNanos;
        while (samples.size() > 1) {
            Sample oldest = samples.removeFirst();
            if (samples.getFirst().nanos() > start) { // the window begins after it: it stays as its start
                samples.addFirst(oldest);
                break;
            }
        }
        return now;
    }

    private String line(Sample now) {
        Sample first = samples.getFirst();
        return ProgressLine.format(now.done(), first.done(), total, now.nanos() - first.nanos());
    }

    private void stop() {
        timer.shutdownNow();
        try {
            timer.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        stop();
    }
}

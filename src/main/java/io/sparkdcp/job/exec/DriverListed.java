package io.sparkdcp.job.exec;

import io.sparkdcp.copy.BatchResult;
import io.sparkdcp.copy.CopyCounts;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.copy.options.RootFile;
import io.sparkdcp.job.listing.ListingSummary;
import io.sparkdcp.walk.DirectoryBlock;
import io.sparkdcp.walk.Filter;
import io.sparkdcp.walk.Listing;
import io.sparkdcp.walk.TreeWalker;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A listing held on the driver ({@link SourceListing}), its spreads lists whose phases run on the
 * runner. Streamed, the walk runs on a thread of its own and each arrival is what it listed since the
 * last (a parent before its subdirectories), so a copy on this JVM's threads starts while it lists.
 */
final class DriverListed implements Listed {
    private final PhaseRunner runner;
    private final JobOptions options;
    private final Consumer<String> log;
    private final Consumer<DirectoryBlock> onListed;
    private final boolean streamed;
    private FutureTask<Listing> walk;
    private ListingSummary summary;

    DriverListed(PhaseRunner runner, JobOptions options, Consumer<String> log, Consumer<DirectoryBlock> onListed, boolean streamed) {
        this.runner = runner;
        this.options = options;
        this.log = log;
        this.onListed = onListed;
        this.streamed = streamed;
    }

    @Override
    public Iterable<Spread<DirectoryBlock>> arrivals() {
        if (!streamed) {
            walk = new FutureTask<>(() -> SourceListing.of(options, runner, log, onListed));
            walk.run();
            return List.of(spread(walked().blocks()));
        }
        BlockingQueue<DirectoryBlock> listed = new LinkedBlockingQueue<>();
        walk = new FutureTask<>(() -> SourceListing.of(options, runner, log, block -> {
            onListed.accept(block);
            listed.add(block);
        }));
        Thread walker = new Thread(walk, "walk");
        walker.setDaemon(true); // a job that failed does not wait for its walk to end
        walker.start();
        return () -> new Iterator<>() {
            private List<DirectoryBlock> next;

            @Override
            public boolean hasNext() {
                if (next == null) next = arrived(listed);
                return !next.isEmpty();
            }

            @Override
            public Spread<DirectoryBlock> next() {
                if (!hasNext()) throw new NoSuchElementException();
                Spread<DirectoryBlock> arrival = spread(next);
                next = null;
                return arrival;
            }
        };
    }

    /**
     * The directories listed since the last call, waiting for a batch's worth of entries (so that the
     * batches cut from an arrival are mostly full); none once the walk has ended and all were taken.
     */
    private List<DirectoryBlock> arrived(BlockingQueue<DirectoryBlock> listed) {
        List<DirectoryBlock> arrived = new ArrayList<>();
        long entries = 0;
        try {
            while (entries < options.batchFiles()) {
                boolean ended = walk.isDone(); // before draining: an ended walk has queued all it listed
                int before = arrived.size();
                listed.drainTo(arrived);
                for (DirectoryBlock b : arrived.subList(before, arrived.size())) entries += b.entryCount();
                if (ended || entries >= options.batchFiles()) break;
                DirectoryBlock b = listed.poll(10, TimeUnit.MILLISECONDS);
                if (b == null) continue;
                arrived.add(b);
                entries += b.entryCount();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("copy interrupted while the walk listed the source", e);
        }
        return arrived;
    }

    /** The walk's listing, or what stopped it (a source root that cannot be opened), as the walk threw it. */
    private Listing walked() {
        try {
            return walk.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("copy interrupted while the walk listed the source", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) throw r;
            if (e.getCause() instanceof Error r) throw r;
            throw new IllegalStateException("the walk failed: " + e.getCause(), e.getCause());
        }
    }

    @Override
    public ListingSummary summary() {
        if (summary == null) summary = summaryOf(walked());
        return summary;
    }

    /** Every error kept: the driver has them all. */
    private static ListingSummary summaryOf(Listing listing) {
        return ListingSummary.of(listing.blocks(), List.of(), 0).withErrors(listing.errors());
    }

    @Override
    public String listedBy() { return SourceListing.listedBy(options, runner); }

    @Override
    public <T> Spread<T> spread(List<T> items) { return LocalSpread.of(runner, items); }

    @Override
    public Walked destination(byte[] root, boolean projects, Filter filter) {
        RootFile file = options.copy().rootFile(); // a file as SRC maps onto one name in DST
        Listing listing = file != null ? TreeWalker.walkOne(root, file.destinationName(), file.destinationName(), false)
                : new TreeWalker(options.walkThreads(), projects, filter).walk(root);
        return new Walked(spread(listing.blocks()), summaryOf(listing));
    }

    @Override
    public <T> SpreadFeed<T> start(String phase, CopyOptions copy, TaskWork<T> work) {
        PhaseRunner.TaskFeed<T> running = runner.start(phase, copy, work);
        return new SpreadFeed<>() {
            @Override
            public void submit(Spread<T> tasks) {
                for (T task : ((LocalSpread<T>) tasks).items()) running.submit(task);
            }

            @Override
            public CopyCounts finish() {
                CopyCounts counts = new CopyCounts();
                for (BatchResult r : running.finish()) counts.merge(r.counts());
                return counts;
            }

            @Override
            public void close() { running.close(); }
        };
    }

    @Override
    public void close() {}
}

package io.sparkdcp.job.exec;

import io.sparkdcp.copy.CopyCounts;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.job.listing.ListingSummary;
import io.sparkdcp.walk.DirectoryBlock;
import io.sparkdcp.walk.Filter;

import java.util.List;

/**
 * A job's listing of the source and the place its tasks run: on the driver as lists (walked there,
 * or on the runner's tasks, or read back), or on the executors as an RDD. Each {@link PhaseRunner}
 * makes the kind it can; the copy's recipe only sees {@link Spread}s. Every listing gives the same
 * blocks and counts for the same tree, and its spreads keep {@link Spread}'s contract (SpreadContract's
 * tests hold both kinds to it).
 */
public interface Listed extends AutoCloseable {
    /**
     * The source's blocks as they are listed, each arrival a spread to start on: several while a walk
     * on this JVM's threads still lists, one (the whole listing) elsewhere. Taken once.
     */
    Iterable<Spread<DirectoryBlock>> arrivals();

    /** Every arrival as one spread, for a recipe that needs the whole listing before it starts; takes the arrivals. */
    default Spread<DirectoryBlock> wholeListing() {
        Spread<DirectoryBlock> all = null;
        for (Spread<DirectoryBlock> arrival : arrivals()) all = all == null ? arrival : all.union(arrival);
        return all == null ? spread(List.of()) : all;
    }

    /** The whole listing's counts and errors, once every arrival was taken (it waits for the walk's end). */
    ListingSummary summary();

    /** Who listed the source, as the report says it ({@link SourceListing#DRIVER} and the others). */
    String listedBy();

    /** Items of the driver's, spread where this listing's are: one share, in their order. */
    <T> Spread<T> spread(List<T> items);

    /**
     * DST walked where the source was (for sync --delete, compare and the dry run; for a file as SRC, the one name
     * it maps onto), with what the walk could not list; project IDs read with {@code projects}.
     */
    Walked destination(byte[] root, boolean projects, Filter filter);

    record Walked(Spread<DirectoryBlock> blocks, ListingSummary summary) {}

    /**
     * A phase whose tasks are handed over while it runs, each submitted item one task: on threads each
     * starts at once, elsewhere all at {@link SpreadFeed#finish}.
     */
    <T> SpreadFeed<T> start(String phase, CopyOptions options, TaskWork<T> work);

    /** A running phase fed spreads of tasks, where the listing lives; its tasks' counts added up, not each result. */
    interface SpreadFeed<T> extends AutoCloseable {
        /** Each item a task. */
        void submit(Spread<T> tasks);

        /** Every task done: their counts added up (none submitted: zero). */
        CopyCounts finish();

        @Override
        void close();
    }

    /** Drops what was kept for the job ({@link Spread#kept}, {@link Spread#runKept}, the walks'). */
    @Override
    void close();
}

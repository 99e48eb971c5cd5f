package io.sparkdcp.spark;

import io.sparkdcp.copy.BatchResult;
import io.sparkdcp.copy.CopyCounts;
import io.sparkdcp.copy.CopyEngine;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.job.exec.JobOptions;
import io.sparkdcp.job.exec.Listed;
import io.sparkdcp.job.listing.ListingSummary;
import io.sparkdcp.job.exec.SourceListing;
import io.sparkdcp.job.exec.Spread;
import io.sparkdcp.job.exec.TaskWork;
import io.sparkdcp.walk.DirectoryBlock;
import io.sparkdcp.walk.Filter;
import org.apache.spark.api.java.JavaRDD;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A listing that stays on the executors, for trees larger than one driver's memory: the walk's blocks
 * (or a saved listing read there) are a persisted RDD, and the driver holds counts, never an entry.
 */
final class RddListed implements Listed {
    private final RddSpread.Job job;
    private final JobOptions options;
    private final ExecutorWalk walk;
    private final ExecutorWalk destinationWalk;
    private ExecutorWalk.Walked walked;

    RddListed(SparkPhaseRunner runner, JobOptions options, Consumer<String> log, long walkEntriesPerTask) {
        this.job = new RddSpread.Job(runner);
        this.options = options;
        this.walk = new ExecutorWalk(runner, options.walkThreads(), walkEntriesPerTask, log);
        this.destinationWalk = new ExecutorWalk(runner, options.walkThreads(), walkEntriesPerTask, log);
    }

    /** One arrival: the whole listing, once walked. */
    @Override
    public Iterable<Spread<DirectoryBlock>> arrivals() {
        walked = walk.source(options);
        return List.of(job.spread(walked.blocks()));
    }

    @Override
    public ListingSummary summary() { return walked.summary(); }

    @Override
    public String listedBy() { return SourceListing.listedBy(options, job.runner()); }

    @Override
    public <T> Spread<T> spread(List<T> items) {
        return job.spread(job.runner().context().parallelize(items, 1));
    }

    @Override
    public Walked destination(byte[] root, boolean projects, Filter filter) {
        ExecutorWalk.Walked destination = destinationWalk.walk(root, projects, filter);
        return new Walked(job.spread(destination.blocks()), destination.summary());
    }

    /** The tasks submitted run at {@link SpreadFeed#finish}, one item each, as one result stage. */
    @Override
    public <T> SpreadFeed<T> start(String phase, CopyOptions copy, TaskWork<T> work) {
        List<JavaRDD<T>> submitted = new ArrayList<>();
        return new SpreadFeed<>() {
            @Override
            public void submit(Spread<T> tasks) { submitted.add(((RddSpread<T>) tasks).rdd()); }

            @Override
            public CopyCounts finish() {
                if (submitted.isEmpty()) return new CopyCounts();
                JavaRDD<T> all = submitted.get(0);
                for (JavaRDD<T> more : submitted.subList(1, submitted.size())) all = all.union(more);
                Optional<Spread<T>> tasks = job.spread(all).dealt(1, "plan the tasks of " + phase);
                return tasks.isEmpty() ? new CopyCounts() : tasks.get().run(phase, copy, (engine, share) -> eachTask(engine, share, work));
            }

            @Override
            public void close() {}
        };
    }

    private static <T> BatchResult eachTask(CopyEngine engine, List<T> share, TaskWork<T> work) {
        CopyCounts done = new CopyCounts();
        for (T task : share) done.merge(work.run(engine, task).counts());
        return BatchResult.of(done);
    }

    @Override
    public void close() {
        job.runner().context().setJobDescription(null);
        job.release();
        walk.release();
        destinationWalk.release();
    }
}

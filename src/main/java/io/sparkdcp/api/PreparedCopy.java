package io.sparkdcp.api;

import io.sparkdcp.copy.CopyOptions;
import io.sparkdcp.job.CopyJob;
import io.sparkdcp.job.JobOptions;
import io.sparkdcp.job.Roots;
import io.sparkdcp.progress.ProgressPrinter;
import io.sparkdcp.spark.SparkPhaseRunner;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * A copy whose roots and options have been checked: nothing is written until {@link #run}. The CLI
 * checks first so that a usage error comes before Spark starts.
 */
public final class PreparedCopy {
    private final Roots roots;
    private final JobOptions options;
    private final CopyRequest request;

    private PreparedCopy(Roots roots, JobOptions options, CopyRequest request) {
        this.roots = roots;
        this.options = options;
        this.request = request;
    }

    static PreparedCopy check(String source, String destination, CopyRequest request) {
        Roots roots = Roots.check(source, destination);
        CopyOptions copy = new CopyOptions(roots.sourceBytes(), roots.destinationBytes(), request.xattrs(),
                request.access(), request.projectIds(), request.chunkSize());
        JobOptions options = new JobOptions(copy, request.batchFiles(), request.batchBytes(), request.walkThreadsOrDefault(),
                request.threadsPerTask());
        return new PreparedCopy(roots, options, request);
    }

    /** Runs the copy on the caller's context (left running). */
    public CopyResult run(JavaSparkContext sc) {
        try (SparkPhaseRunner runner = new SparkPhaseRunner(sc)) {
            roots.createDestination();
            if (request.progressInterval().isZero()) {
                return new CopyResult(new CopyJob(options, runner, request.messages()).run());
            }
            try (ProgressPrinter progress = new ProgressPrinter(request.progressInterval(), runner::done, request.messages())) {
                return new CopyResult(new CopyJob(options, runner, request.messages(), progress::planned).run());
            }
        }
    }
}

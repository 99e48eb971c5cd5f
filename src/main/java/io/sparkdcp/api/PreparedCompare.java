package io.sparkdcp.api;

import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.copy.options.ItemLogTarget;
import io.sparkdcp.itemlog.ItemLogDir;
import io.sparkdcp.job.CompareJob;
import io.sparkdcp.job.exec.JobOptions;
import io.sparkdcp.job.listing.ListingOptions;
import io.sparkdcp.job.exec.LocalPhaseRunner;
import io.sparkdcp.job.exec.PhaseRunner;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.report.CompareReport;
import io.sparkdcp.roots.OutputPlaces;
import io.sparkdcp.roots.Roots;
import io.sparkdcp.roots.Sources;
import io.sparkdcp.roots.UsageException;
import io.sparkdcp.spark.SparkPhaseRunner;
import org.apache.spark.api.java.JavaSparkContext;

import java.util.List;
import java.util.function.Supplier;

/**
 * A comparison of two trees whose roots and options have been checked (both trees exist and are
 * directories, neither inside the other). It writes nothing to either tree.
 */
public final class PreparedCompare {
    private final JobOptions options;
    private final long windowNanos;
    private final CopyRequest request;
    private final Roots roots;

    private PreparedCompare(JobOptions options, long windowNanos, CopyRequest request, Roots roots) {
        this.roots = roots;
        this.options = options;
        this.windowNanos = windowNanos;
        this.request = request;
    }

    static PreparedCompare check(byte[] source, byte[] destination, CopyRequest request) {
        // rsync's forms, as copy and sync take them: SRC/ against DST, SRC against DST/name (what copy SRC DST made).
        Roots roots = Sources.check(List.of(source), destination, true).pairs().get(0);
        if (!roots.destinationExists()) throw new UsageException("destination " + PathBytes.display(roots.target()) + " does not exist");
        if (request.listing().savedDir() != null)
            throw new UsageException("compare walks both trees: --listing and --save-listing do not apply");
        if (request.throttle().limits())
            throw new UsageException("compare does not take --max-ops or --bwlimit: they limit what a copy or sync does");
        CopyOptions copy = PreparedCopy.engineOptions(request, roots).withItemLog(PreparedCopy.itemLog(request, List.of(roots)));
        JobOptions options = new JobOptions(copy, request.batching(), new ListingOptions(request.listing().walk(), null, null));
        return new PreparedCompare(options, request.run().timeWindow().toNanos(), request, roots);
    }

    /** {@code --report FILE}, checked before anything is written: outside SRC and DST, and writable. */
    public void checkReport(byte[] file) {
        OutputPlaces.checkFile("--report", file, List.of(roots));
    }

    /**
     * Compares on the caller's context (left running): walks and pair batches run as Spark tasks.
     * A driver out of memory throws {@link DriverOutOfMemoryException}.
     */
    public CompareResult run(JavaSparkContext sc) {
        return DriverMemoryGuard.run(sc, this::run);
    }

    /** Compares on threads in this JVM (one task per CPU), without Spark; out of memory, as {@link #run(JavaSparkContext)}. */
    public CompareResult runInProcess() {
        return InProcessMemoryGuard.run(() -> run(new LocalPhaseRunner(Runtime.getRuntime().availableProcessors())));
    }

    private CompareResult run(PhaseRunner runner) {
        ItemLogTarget log = options.copy().itemLog();
        Supplier<CompareReport> job = () -> new CompareJob(options, windowNanos, runner, request.run().messages()).run();
        return new CompareResult(log == null ? job.get() : ItemLogDir.logged(log.dir(), job));
    }
}

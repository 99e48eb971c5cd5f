package io.sparkdcp.spark;

import io.sparkdcp.copy.BatchResult;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.copy.options.ItemLogTarget;
import io.sparkdcp.itemlog.ItemLine;
import io.sparkdcp.itemlog.ItemLogDir;
import io.sparkdcp.job.CopyJob;
import io.sparkdcp.job.exec.JobOptions;
import io.sparkdcp.job.listing.ListingOptions;
import io.sparkdcp.job.exec.PhaseRunner;
import io.sparkdcp.job.exec.TaskWork;
import io.sparkdcp.job.listing.WalkMode;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.testing.ForwardingPhaseRunner;
import io.sparkdcp.testing.LocalCopy;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.RichTree;
import io.sparkdcp.testing.TreeComparator;
import org.apache.spark.SparkConf;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static io.sparkdcp.testing.ItemLogs.assertEachPathOnce;
import static io.sparkdcp.testing.ItemLogs.assertMatchesCounts;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Spark task attempts that wrote their part of the item log and then died (local Spark, up to three
 * attempts per task): only the retry's lines are in the log, each path once, and they match the
 * report, on the driver's plan and on the plan that stays on the executors.
 */
class ItemLogRetryTest {
    private static LoopMount mount;
    private static Path source;
    private static JavaSparkContext sc;
    private static int runs;

    @BeforeAll
    static void start() throws IOException {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.create("itemlog-retry", 512);
        source = RichTree.build(Files.createDirectory(mount.dir().resolve("src"))).root();
        sc = new JavaSparkContext(new SparkConf().setAppName("spark-dcp-test").setMaster("local[2,3]")
                .set("spark.ui.enabled", "false").set("spark.speculation", "false"));
    }

    @AfterAll
    static void stop() {
        if (sc != null) sc.stop();
        if (mount != null) mount.close();
    }

    private static JobOptions logging(WalkMode walk, Path dst, Path log, boolean skipped) throws IOException {
        Files.createDirectories(dst);
        JobOptions job = LocalCopy.defaults().withChunkSize(1 << 20).withBatchFiles(7)
                .withListing(new ListingOptions(walk, null, null)).jobOptions(source, dst);
        return job.withCopy(job.copy().withItemLog(new ItemLogTarget(log.toString(), skipped, PathBytes.EMPTY)));
    }

    @Test
    void attemptsKilledAfterLoggingLeaveOnlyTheirRetrysLinesOnTheExecutorPlan() throws IOException {
        Path dst = mount.dir().resolve("dst" + ++runs), log = mount.dir().resolve("log" + runs);
        JobOptions job = logging(WalkMode.DISTRIBUTED, dst, log, true);
        CopyReport report;
        try (SparkPhaseRunner runner = new SparkPhaseRunner(sc)) {
            report = ItemLogDir.logged(log.toString(), () -> new CopyJob(job, runner, line -> {}, total -> {}).fault(phase -> {
                        if (TaskContext.get().attemptNumber() == 0) throw new IllegalStateException("injected failure after " + phase);
                    }).walkEntriesPerTask(25).run());
        }
        assertKeptOnlyTheRetries(report, dst, log, true);
    }

    @Test
    void attemptsKilledAfterLoggingLeaveOnlyTheirRetrysLinesOnTheDriversPlan() throws IOException {
        Path dst = mount.dir().resolve("dst" + ++runs), log = mount.dir().resolve("log" + runs);
        // Without skipped entries: the retries find their work done and log nothing, so every copied line would be a dead attempt's.
        JobOptions job = logging(WalkMode.DRIVER, dst, log, false);
        CopyReport report;
        try (SparkPhaseRunner spark = new SparkPhaseRunner(sc)) {
            PhaseRunner runner = new FirstAttemptFails(spark);
            report = ItemLogDir.logged(log.toString(), () -> new CopyJob(job, runner, line -> {}).run());
        }
        assertKeptOnlyTheRetries(report, dst, log, false);
    }

    private static void assertKeptOnlyTheRetries(CopyReport report, Path dst, Path log, boolean skipped) {
        assertEquals(List.of(), report.counts().failures());
        TreeComparator.assertSameTree(source, dst);
        List<ItemLine> lines = ItemLogDir.read(log.toString());
        assertMatchesCounts(lines, report.counts(), skipped);
        assertEachPathOnce(lines);
        // The first attempts did the work, so their retries found it done.
        assertTrue(report.counts().skipped() > 0, report.toString());
        assertFalse(Files.exists(log.resolve("_temporary")), "attempts that never committed are cleared");
    }

    /** Each task's first attempt does its work, logs it, and then fails. */
    private record FirstAttemptFails(PhaseRunner delegate) implements ForwardingPhaseRunner {
        @Override
        public <T> List<BatchResult> run(String phase, List<T> tasks, CopyOptions options, TaskWork<T> work) {
            return delegate.run(phase, tasks, options, (engine, task) -> {
                BatchResult result = work.run(engine, task);
                if (TaskContext.get().attemptNumber() == 0) throw new IllegalStateException("injected failure after the work");
                return result;
            });
        }
    }
}

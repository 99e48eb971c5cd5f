package io.sparkdcp.spark;

import io.sparkdcp.copy.BatchResult;
import io.sparkdcp.copy.CopyOptions;
import io.sparkdcp.copy.Step;
import io.sparkdcp.job.CopyJob;
import io.sparkdcp.job.JobOptions;
import io.sparkdcp.job.PhaseRunner;
import io.sparkdcp.job.TaskWork;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.testing.ForwardingPhaseRunner;
import io.sparkdcp.testing.LocalCopy;
import io.sparkdcp.testing.LoopMount;
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

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A retried Spark task knows it is a retry: an earlier attempt of it may still run (its executor cut
 * off from a killed worker), so it holds each file it creates locked while it writes it (the step
 * `lock`, one per file), and a first attempt takes no lock (local Spark, up to three attempts per task).
 * What the locks prevent is shown, attempt by attempt, by {@code copy.StaleAttemptTest}.
 */
class RetryAttemptTest {
    private static final int FILES = 30;
    private static LoopMount mount;
    private static Path source;
    private static JavaSparkContext sc;
    private static int runs;

    @BeforeAll
    static void start() throws IOException {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.create("retry-attempt", LoopMount.MIN_SIZE_MIB);
        source = Files.createDirectory(mount.dir().resolve("src"));
        for (int i = 0; i < FILES; i++) Files.writeString(source.resolve("f" + i), "file " + i);
        sc = new JavaSparkContext(new SparkConf().setAppName("spark-dcp-test").setMaster("local[2,3]")
                .set("spark.ui.enabled", "false").set("spark.speculation", "false"));
    }

    @AfterAll
    static void stop() {
        if (sc != null) sc.stop();
        if (mount != null) mount.close();
    }

    @Test
    void aRetriedTaskLocksEachFileItCreatesAndAFirstAttemptLocksNone() throws IOException {
        assertEquals(FILES, locksOfACopy(true), "a lock per file the retries created");
        assertEquals(0, locksOfACopy(false), "first attempts take no lock");
    }

    /** Copies SRC into a new DST on Spark, each task's first attempt failing before its work if asked; the locks taken. */
    private static long locksOfACopy(boolean firstAttemptsFail) throws IOException {
        Path dst = Files.createDirectory(mount.dir().resolve("dst" + ++runs));
        JobOptions job = LocalCopy.defaults().withBatchFiles(7).jobOptions(source, dst);
        try (SparkPhaseRunner spark = new SparkPhaseRunner(sc)) {
            PhaseRunner runner = firstAttemptsFail ? new FirstAttemptFailsFirst(spark) : spark;
            CopyReport report = new CopyJob(job, runner, line -> {}).run();
            assertEquals(List.of(), report.counts().failures());
            TreeComparator.assertSameTree(source, dst);
            return report.steps().count(Step.LOCK);
        }
    }

    /** Each task's first attempt fails before its work: the retry does it all. */
    private record FirstAttemptFailsFirst(PhaseRunner delegate) implements ForwardingPhaseRunner {
        @Override
        public <T> List<BatchResult> run(String phase, List<T> tasks, CopyOptions options, TaskWork<T> work) {
            return delegate.run(phase, tasks, options, (engine, task) -> {
                if (TaskContext.get().attemptNumber() == 0) throw new IllegalStateException("injected failure before the work");
                return work.run(engine, task);
            });
        }
    }
}

package io.sparkdcp.spark;

import io.sparkdcp.copy.BatchResult;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.copy.steps.Step;
import io.sparkdcp.job.CopyJob;
import io.sparkdcp.job.exec.JobOptions;
import io.sparkdcp.job.exec.PhaseRunner;
import io.sparkdcp.job.exec.TaskWork;
import io.sparkdcp.posix.FileType;
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
 * Retried Spark tasks (each first attempt fails before its work) copy exactly. An earlier attempt of a
 * task may still run (its executor cut off from a killed worker): a new file gets its name only when
 * complete, so no lock guards it, and a file to be replaced is held under its lock until the rename
 * over it (the step `lock`, one per file replaced). What the locks prevent is shown, attempt by
 * attempt, by {@code copy.StaleAttemptTest}.
 */
class RetryAttemptTest {
    private static final int FILES = 30;
    private static LoopMount mount;
    private static Path source;
    private static JavaSparkContext sc;

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
    void retriedTasksCopyExactlyAndLockOnlyTheFilesTheyReplace() throws IOException {
        Path dst = Files.createDirectory(mount.dir().resolve("dst"));
        assertEquals(0, locksOfACopy(dst), "new files are linked into place complete: no lock");
        for (int i = 0; i < FILES; i++) Files.writeString(source.resolve("f" + i), "file " + i + ", changed");
        assertEquals(FILES, locksOfACopy(dst), "a lock per file replaced");
    }

    /** Copies SRC into DST on Spark, each task's first attempt failing before its work; the locks taken. */
    private static long locksOfACopy(Path dst) {
        JobOptions job = LocalCopy.defaults().withBatchFiles(7).jobOptions(source, dst);
        try (SparkPhaseRunner spark = new SparkPhaseRunner(sc)) {
            CopyReport report = new CopyJob(job, new FirstAttemptFailsFirst(spark), line -> {}).run();
            assertEquals(List.of(), report.counts().failures());
            assertEquals(FILES, report.counts().copied(FileType.FILE));
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

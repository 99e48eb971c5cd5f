package io.sparkdcp.spark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkdcp.cli.Main;
import io.sparkdcp.testing.ChildJvm;
import io.sparkdcp.testing.MountedSource;
import io.sparkdcp.testing.TreeComparator;
import io.sparkdcp.testing.TreeFiles;
import io.sparkdcp.testing.TwoWorkerSparkCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A standalone cluster of two one-core workers; one is killed with SIGKILL while files are being
 * copied. The lost tasks run again on the other worker: the job finishes with exit 0, the tree
 * compares exact, and the step totals (Spark accumulators) count each file's work once — a file
 * the lost attempt had finished is skipped by the retry, not counted twice. Killed with its executor
 * (the node is lost), or alone: then its executor, cut off, runs its attempts on beside their retries
 * until Spark's worker watcher stops it, and none of them may undo a file a retry copied.
 */
class WorkerKillTest {
    private static final int DIRECTORIES = 15;
    private static final int FILES_PER_DIRECTORY = 100;
    private static final int FILES = DIRECTORIES * FILES_PER_DIRECTORY;
    private static final int FILE_SIZE = 32 << 10;
    private static final int BATCH_FILES = 50;

    @RegisterExtension
    static final MountedSource source = MountedSource.manyFiles("workerkill", DIRECTORIES, FILES_PER_DIRECTORY, FILE_SIZE);

    @Test
    void aNodeLostMidCopyLeavesAnExactTreeAndCountsEachFileOnce() throws Exception {
        JsonNode json = copyLosing("node", cluster -> cluster.killWorker(0), 0);
        long copied = json.at("/copied_by_type/file").asLong();
        long skipped = json.at("/skipped_by_type/file").asLong();
        // Each file is created once, unnamed, by the attempt that counts; the lost attempt's files are either
        // whole under their names (the retry skips them without an open) or were never named.
        assertEquals(copied, json.at("/steps/open_dst/count").asLong());
    }

    @Test
    void aWorkerKilledAloneWhoseExecutorRunsOnLeavesAnExactTreeAndCountsEachFileOnce() throws Exception {
        // The cut-off executor (one core: one task of at most one batch at a time) may copy a file its retry
        // copies too: whichever is linked second finds the name taken, drops its unnamed file and counts it
        // skipped. Its data step was done all the same, in an attempt that counts.
        copyLosing("worker", cluster -> cluster.killWorkerAlone(0), BATCH_FILES);
    }

    /**
     * Copies SRC on the cluster, losing worker 0 mid-copy as lose does; checks the run and returns its JSON
     * report. raced: how many files' work may have been done twice, each by an attempt that counts.
     */
    private static JsonNode copyLosing(String lost, Consumer<TwoWorkerSparkCluster> lose, int raced) throws Exception {
        Path dst = source.mount().dir().resolve("dst-" + lost);
        Path report = source.mount().dir().resolve("report-" + lost + ".json");
        // Logs under target/ so they outlive the mount when something goes wrong.
        Path logs = Files.createDirectories(Path.of("target", "worker-kill-" + lost + "-" + ProcessHandle.current().pid()).toAbsolutePath());
        try (TwoWorkerSparkCluster cluster = TwoWorkerSparkCluster.start(logs, 2)) {
            Process driver = cluster.launch(TwoWorkerSparkCluster.javaCommand(Main.class.getName(),
                    List.of("-Dspark.executor.extraClassPath=" + System.getProperty("java.class.path"),
                            "-Dspark.executor.defaultJavaOptions=" + ChildJvm.flags(),
                            "-Dspark.executor.memory=1g", "-Dspark.ui.enabled=false"),
                    List.of("copy", "--master", cluster.masterUrl(), "--fsync", "--batch-files", String.valueOf(BATCH_FILES),
                            "--report", report.toString(), source.source() + "/", dst.toString())), "driver.log");
            try {
                long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
                while (TreeFiles.regularFiles(dst).size() < FILES / 10 && driver.isAlive() && System.nanoTime() < deadline) Thread.sleep(20);
                assertTrue(driver.isAlive() && TreeFiles.regularFiles(dst).size() < FILES, "the copy must still be running when the worker dies");
                lose.accept(cluster);
                assertTrue(driver.waitFor(5, TimeUnit.MINUTES), "the job did not finish after losing a worker");
            } finally {
                driver.destroyForcibly();
            }
            String driverLog = Files.readString(logs.resolve("driver.log"));
            assertEquals(0, driver.exitValue(), driverLog);
            assertTrue(driverLog.contains("failed and were retried by Spark") || driverLog.contains("failed and was retried by Spark"),
                    "the lost attempts are reported: " + driverLog);
        }

        TreeComparator.assertSameTree(source.source(), dst);
        JsonNode json = new ObjectMapper().readTree(report.toFile());
        long copied = json.at("/copied_by_type/file").asLong();
        long skipped = json.at("/skipped_by_type/file").asLong();
        assertEquals(FILES, copied + skipped, json.toString());
        for (String step : List.of("data", "open_src", "fsync")) {
            long count = json.at("/steps/" + step + "/count").asLong();
            assertTrue(copied <= count && count <= copied + raced, step + ": " + count + " for " + copied + " files copied");
        }
        return json;
    }
}

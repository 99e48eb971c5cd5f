package io.sparkdcp.api;

import io.sparkdcp.report.ReportJson;
import io.sparkdcp.report.ReportText;
import io.sparkdcp.roots.UsageException;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The notebook API on a context the caller owns. */
class SparkDcpTest {
    private static JavaSparkContext sc;

    @TempDir
    Path tmp;

    @BeforeAll
    static void start() {
        sc = new JavaSparkContext(new SparkConf().setAppName("spark-dcp-api").setMaster("local[2]").set("spark.ui.enabled", "false"));
    }

    @AfterAll
    static void stop() {
        sc.stop();
    }

    private Path smallTree() throws Exception {
        Path src = Files.createDirectories(tmp.resolve("src/sub"));
        Files.writeString(src.resolve("a.txt"), "alpha\n");
        return src.getParent();
    }

    @Test
    void copiesAndLeavesTheCallersContextRunning() throws Exception {
        Path src = smallTree();
        Path dst = tmp.resolve("dst");
        List<String> messages = new ArrayList<>();
        CopyResult result = SparkDcp.copy(sc.sc(), src + "/", dst.toString(),
                CopyRequest.builder().messages(messages::add).build());

        assertEquals(0, result.exitCode());
        assertEquals("alpha\n", Files.readString(dst.resolve("sub/a.txt")));
        assertFalse(sc.sc().isStopped());
        assertTrue(messages.get(0).startsWith("listed 3 entries"), messages.toString());
        // A second copy on the same context: a re-run skips everything.
        CopyResult again = SparkDcp.copy(sc, src + "/", dst.toString());
        assertEquals(3L, ((Number) again.toMap().get("skipped")).longValue());
    }

    @Test
    void withoutAContextTheSameCopyRunsOnThreadsAndASyncDeletesWhatSrcLacks() throws Exception {
        Path src = smallTree();
        Path dst = tmp.resolve("dst");
        CopyRequest quiet = CopyRequest.builder().messages(line -> {}).build();
        CopyResult copied = SparkDcp.prepare(src + "/", dst.toString(), quiet).runInProcess();
        assertEquals(0, copied.exitCode());
        assertEquals("alpha\n", Files.readString(dst.resolve("sub/a.txt")));
        assertEquals(3, ((Number) copied.toMap().get("copied")).intValue());

        Files.writeString(dst.resolve("extra.txt"), "not in SRC");
        CopyRequest sync = CopyRequest.builder().messages(line -> {}).sync(true).build();
        CopyResult synced = SparkDcp.prepare(src + "/", dst.toString(), sync).runSyncInProcess(true);
        assertEquals(0, synced.exitCode(), synced.toString());
        assertFalse(Files.exists(dst.resolve("extra.txt")));
        assertEquals(1, ((Number) synced.toMap().get("deleted")).intValue());
    }

    @Test
    void printsAsTheCliTableAndConvertsToTheReportFields() throws Exception {
        CopyResult result = SparkDcp.copy(sc, smallTree() + "/", tmp.resolve("dst").toString(),
                CopyRequest.builder().messages(line -> {}).build());
        assertEquals(ReportText.render(result.report()), result.toString());
        assertEquals(ReportJson.render(result.report()), result.toJson());
        Map<String, Object> map = result.toMap();
        assertEquals(3, ((Number) map.get("copied")).intValue());
        assertEquals(Map.of("directory", 2L, "file", 1L), map.get("copied_by_type"));
        assertEquals(List.of(), map.get("failures"));
    }

    @Test
    void anImpossibleRequestThrowsBeforeWritingAnything() {
        Path dst = tmp.resolve("dst");
        UsageException e = assertThrows(UsageException.class,
                () -> SparkDcp.copy(sc, tmp.resolve("absent").toString(), dst.toString()));
        assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
        assertFalse(Files.exists(dst));
    }

    @Test
    void builderTakesTheCliWords() {
        CopyRequest r = CopyRequest.builder().xattrs("libattr").xattrAccess("fd").batchBytes("64M").chunkSize("1G").build();
        assertEquals("libattr", r.keep().xattrs().word());
        assertEquals(64L << 20, r.batching().batchBytes());
        assertEquals(1L << 30, r.batching().chunkSize());
        assertTrue(CopyRequest.builder().mode("verify", true).build().modes().verify());
        assertThrows(IllegalArgumentException.class, () -> CopyRequest.builder().mode("--verify", true));
        assertThrows(IllegalArgumentException.class, () -> CopyRequest.builder().batchBytes("12Q"));
        assertThrows(IllegalArgumentException.class, () -> CopyRequest.builder().walkThreads(0));
    }

    @Test
    void everyBoundIsCheckedByTheBuilderNamingTheOption() {
        assertBound("--walk-threads", () -> CopyRequest.builder().walkThreads(100_000));
        assertBound("--threads-per-task", () -> CopyRequest.builder().threadsPerTask(0));
        assertBound("--threads-per-task", () -> CopyRequest.builder().threadsPerTask(CopyRequest.MAX_THREADS + 1));
        assertBound("--batch-files", () -> CopyRequest.builder().batchFiles(0));
        assertBound("--batch-bytes", () -> CopyRequest.builder().batchBytes(0));
        assertBound("--chunk-size", () -> CopyRequest.builder().chunkSize("4K"));
        assertBound("--progress", () -> CopyRequest.builder().progressSeconds(-1));
        assertBound("--progress", () -> CopyRequest.builder().progressSeconds(CopyRequest.MAX_PROGRESS_SECONDS + 1));
        assertBound("--listing", () -> CopyRequest.builder().listing("a").saveListing("b").build());
        assertEquals(CopyRequest.MAX_THREADS, CopyRequest.builder().threadsPerTask(CopyRequest.MAX_THREADS).build().batching().threadsPerTask());
    }

    @Test
    void theDefaultsAreTheWordsTheHelpShows() {
        CopyRequest d = CopyRequest.defaults();
        assertEquals(CopyRequest.DEFAULT_XATTRS, d.keep().xattrs().word());
        assertEquals(Integer.parseInt(CopyRequest.DEFAULT_BATCH_FILES), d.batching().batchFiles());
        assertEquals(1L << 30, d.batching().batchBytes());
        assertEquals(256L << 20, d.batching().chunkSize());
        assertEquals(1, d.batching().threadsPerTask());
        assertTrue(d.batching().walkThreads() >= 4 && d.batching().walkThreads() <= 64, "walk threads " + d.batching().walkThreads());
        assertEquals(0, d.run().progressInterval().getSeconds());
    }

    private static void assertBound(String option, org.junit.jupiter.api.function.Executable setter) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, setter);
        assertTrue(e.getMessage().startsWith(option + " "), e.getMessage());
    }
}

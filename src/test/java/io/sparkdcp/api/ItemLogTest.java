package io.sparkdcp.api;

import io.sparkdcp.copy.options.CopyModes;
import io.sparkdcp.itemlog.ItemLine;
import io.sparkdcp.itemlog.ItemLogDir;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.RichTree;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.sparkdcp.testing.ItemLogs.assertMatchesCounts;
import static io.sparkdcp.testing.ItemLogs.byPath;
import static io.sparkdcp.testing.ItemLogs.entries;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --log DIR} through the API on a rich tree on XFS (non-UTF-8 and newline names, hard links,
 * specials, project IDs): on threads and on Spark's local mode, for copy, sync with fixes and
 * deletes, a failure, the dry runs, several sources and compare, the log's lines per action equal
 * the report's counts, and every path reads back to its bytes.
 */
class ItemLogTest {
    private static LoopMount mount;
    private static RichTree tree;
    private static JavaSparkContext sc;
    private static int runs;

    @BeforeAll
    static void start() throws IOException {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.create("itemlog", 512);
        tree = RichTree.build(Files.createDirectory(mount.dir().resolve("src")));
        sc = new JavaSparkContext(new SparkConf().setAppName("spark-dcp-itemlog").setMaster("local[2]")
                .set("spark.ui.enabled", "false"));
    }

    @AfterAll
    static void stop() {
        if (sc != null) sc.stop();
        if (mount != null) mount.close();
    }

    private static Path fresh(String name) {
        return mount.dir().resolve(name + ++runs);
    }

    private static CopyRequest.Builder logging(Path log, boolean skipped) {
        return CopyRequest.builder().messages(line -> {}).log(log.toString()).logSkipped(skipped);
    }

    private static CopyRequest syncing(Path log) {
        return logging(log, false).modes(CopyModes.of(CopyModes.Mode.SYNC)).build();
    }

    private static Path copied() {
        Path dst = fresh("dst");
        assertEquals(0, SparkDcp.prepare(tree.root() + "/", dst.toString(), CopyRequest.builder().messages(l -> {}).build())
                .runInProcess().exitCode());
        return dst;
    }

    @Test
    void aCopyOnThreadsLogsEachEntryOnceAndEveryNameReadsBackToItsBytes() {
        Path dst = fresh("dst"), log = fresh("log");
        CopyResult result = SparkDcp.prepare(tree.root() + "/", dst.toString(), logging(log, false).build()).runInProcess();
        assertEquals(0, result.exitCode(), result.toString());
        List<ItemLine> lines = ItemLogDir.read(log.toString());
        assertMatchesCounts(lines, result.report().counts(), false);
        assertTrue(Files.exists(log.resolve("_SUCCESS")));

        Set<ByteBuffer> logged = new HashSet<>();
        for (ItemLine l : lines) logged.add(ByteBuffer.wrap(l.path()));
        for (byte[] entry : tree.entries())
            assertTrue(logged.contains(ByteBuffer.wrap(entry)), "logged: " + PathBytes.display(entry));
        assertTrue(logged.contains(ByteBuffer.wrap(RichTree.nonUtf8File())));
        assertTrue(logged.contains(ByteBuffer.wrap(PathBytes.of(RichTree.NEWLINE_NAME))));
        Map<String, ItemLine> shown = byPath(lines);
        assertEquals("linked", shown.get(RichTree.HARD_LINK_GROUP.get(2)).action());
        assertEquals("symlink", shown.get(RichTree.SYMLINK_RELATIVE).what());
        assertEquals("fifo", shown.get(RichTree.FIFO).what());

        // Again into the same DST and log: everything is skipped, listed only with --log-skipped.
        CopyResult again = SparkDcp.prepare(tree.root() + "/", dst.toString(), logging(log, true).build()).runInProcess();
        List<ItemLine> skipped = ItemLogDir.read(log.toString());
        assertMatchesCounts(skipped, again.report().counts(), true);
        assertEquals(again.report().counts().skipped(), skipped.size());
        CopyResult quiet = SparkDcp.prepare(tree.root() + "/", dst.toString(), logging(log, false).build()).runInProcess();
        assertEquals(0, quiet.exitCode());
        assertEquals(List.of(), ItemLogDir.read(log.toString()), "the earlier log is replaced; skipped entries are not logged");
    }

    @Test
    void aCopyOnSparkLogsTheSameLinesAsOnThreads() {
        Path onThreads = fresh("log"), onSpark = fresh("log");
        SparkDcp.prepare(tree.root() + "/", fresh("dst").toString(), logging(onThreads, false).build()).runInProcess();
        CopyResult spark = SparkDcp.copy(sc, tree.root() + "/", fresh("dst").toString(), logging(onSpark, false).build());
        assertEquals(0, spark.exitCode(), spark.toString());
        List<ItemLine> lines = ItemLogDir.read(onSpark.toString());
        assertMatchesCounts(lines, spark.report().counts(), false);
        assertEquals(entries(ItemLogDir.read(onThreads.toString())), entries(lines));
    }

    @Test
    void aSyncLogsWhatItCopiesFixesAndDeletesAndItsDryRunLogsTheSame() throws IOException {
        Path dst = copied();
        Files.setPosixFilePermissions(dst.resolve(RichTree.SMALL_FILE), PosixFilePermissions.fromString("rw-rw-rw-"));
        Files.writeString(dst.resolve("extra"), "not in SRC");
        Files.delete(dst.resolve(RichTree.DEEP_FILE));

        Path dryLog = fresh("log"), log = fresh("log");
        PreparedCopy dry = SparkDcp.prepare(tree.root() + "/", dst.toString(), syncing(dryLog));
        assertEquals(0, dry.dryRun(true).exitCode());
        CopyResult sync = SparkDcp.prepare(tree.root() + "/", dst.toString(), syncing(log)).runSyncInProcess(true);
        assertEquals(0, sync.exitCode(), sync.toString());

        List<ItemLine> lines = ItemLogDir.read(log.toString());
        assertMatchesCounts(lines, sync.report().counts(), false);
        Map<String, ItemLine> shown = byPath(lines);
        assertEquals("fixed", shown.get(RichTree.SMALL_FILE).action());
        assertEquals("deleted", shown.get("extra").action());
        assertEquals("copied", shown.get(RichTree.DEEP_FILE).action());
        assertEquals(entries(lines), entries(ItemLogDir.read(dryLog.toString())), "the dry run logs what the run does");
    }

    @Test
    void aFailureIsLoggedWithItsCallAndErrnoAndTheRestAsCounted() throws IOException {
        Path dst = copied();
        Files.delete(dst.resolve(RichTree.SMALL_FILE));
        Files.createDirectory(dst.resolve(RichTree.SMALL_FILE)); // a directory where SRC has a file: refused
        Path log = fresh("log");
        CopyResult result = SparkDcp.prepare(tree.root() + "/", dst.toString(), logging(log, true).build()).runInProcess();
        assertEquals(1, result.exitCode());
        List<ItemLine> lines = ItemLogDir.read(log.toString());
        assertMatchesCounts(lines, result.report().counts(), true);
        ItemLine failed = byPath(lines).get(RichTree.SMALL_FILE);
        assertEquals("failed", failed.action());
        assertEquals("file", failed.what());
        assertEquals(3, failed.details().size(), failed.toString());
        String reported = result.failures().get(0).toString();
        assertTrue(reported.contains(failed.details().get(0)) && reported.contains(failed.details().get(2)), failed + " against " + reported);
    }

    @Test
    void severalSourcesLogTheirPathsUnderTheirNamesInDst() {
        Path dst = fresh("dst"), log = fresh("log");
        CopyResult result = SparkDcp.prepare(List.of(tree.root().resolve("links").toString(), tree.root().resolve("deep").toString()),
                dst.toString(), logging(log, false).build()).runInProcess();
        assertEquals(0, result.exitCode(), result.toString());
        List<ItemLine> lines = ItemLogDir.read(log.toString());
        assertMatchesCounts(lines, result.report().counts(), false);
        Map<String, ItemLine> shown = byPath(lines);
        assertEquals("directory", shown.get("links").what());
        assertEquals("copied", shown.get(RichTree.DEEP_FILE).action());
        assertEquals("linked", shown.get(RichTree.HARD_LINK_PAIR.get(1)).action());
    }

    @Test
    void compareLogsEachDifferenceOnALine() throws IOException {
        Path dst = copied();
        Files.setPosixFilePermissions(dst.resolve(RichTree.SMALL_FILE), PosixFilePermissions.fromString("rw-rw-rw-"));
        Files.writeString(dst.resolve("extra"), "not in SRC");
        Path log = fresh("log");
        CompareResult result = SparkDcp.prepareCompare(tree.root() + "/", dst.toString(), logging(log, false).build()).runInProcess();
        assertEquals(1, result.exitCode(), result.toString());
        List<ItemLine> lines = ItemLogDir.read(log.toString());
        assertEquals(result.report().differences().size(), lines.size(), lines.toString());
        Map<String, ItemLine> shown = byPath(lines);
        ItemLine mode = shown.get(RichTree.SMALL_FILE);
        assertEquals(List.of("differs", "mode", "0666"), List.of(mode.action(), mode.what(), mode.details().get(1)), mode.toString());
        assertEquals("only_in_destination", shown.get("extra").what());
    }

    @Test
    void aCopyDryRunLogsWhatTheCopyThenLogsHardLinksIncluded() {
        Path dst = fresh("dst"), dryLog = fresh("log"), log = fresh("log");
        DryRun plan = SparkDcp.prepare(tree.root() + "/", dst.toString(), logging(dryLog, false).build()).dryRun(false);
        assertEquals(0, plan.exitCode());
        assertFalse(Files.exists(dst), "a dry run creates nothing in DST");
        List<ItemLine> dry = ItemLogDir.read(dryLog.toString());
        assertEquals(plan.toString().lines().filter(l -> l.startsWith("copy: ")).count(), dry.size());
        SparkDcp.prepare(tree.root() + "/", dst.toString(), logging(log, false).build()).runInProcess();
        assertEquals(entries(ItemLogDir.read(log.toString())), entries(dry));
    }
}

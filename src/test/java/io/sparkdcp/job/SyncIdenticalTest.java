package io.sparkdcp.job;

import io.sparkdcp.copy.compare.Difference;
import io.sparkdcp.job.exec.JobOptions;
import io.sparkdcp.job.exec.LocalPhaseRunner;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.Stat;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.spark.SparkPhaseRunner;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import io.sparkdcp.testing.LocalCopy;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.TreeComparator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * After a sync, compare finds DST identical: hard-link structure that SRC changed (a pair split, a pair
 * joined, names linked to another inode), and inode flags set or cleared on one side, which compare
 * reports until the sync. Each change keeps the files' size and mtime, so only link counts and flags tell.
 */
class SyncIdenticalTest {
    private static final LocalCopy SYNC = LocalCopy.syncDefaults();
    private static LoopMount mount;
    private static int trees;

    @BeforeAll
    static void mount() {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.create("syncid", LoopMount.MIN_SIZE_MIB);
    }

    @AfterAll
    static void unmount() {
        if (mount != null) mount.close();
    }

    @ParameterizedTest(name = "delete {0}")
    @ValueSource(booleans = {false, true})
    void aPairThatSourceSplitIsSplitAtDestination(boolean delete) throws IOException {
        Path src = newTree();
        Files.writeString(src.resolve("f"), "one inode, two names");
        Files.createLink(src.resolve("hl"), src.resolve("f"));
        Path dst = synced(src);

        separate(src.resolve("hl"));

        assertEquals(List.of(), SYNC.sync(src, dst, delete).counts().failures());
        assertNotEquals(inode(dst.resolve("f")), inode(dst.resolve("hl")));
        TreeComparator.assertSameTree(src, dst);
    }

    @ParameterizedTest(name = "delete {0}")
    @ValueSource(booleans = {false, true})
    void aPairThatSourceJoinedIsJoinedAtDestination(boolean delete) throws IOException {
        Path src = newTree();
        Files.writeString(src.resolve("f"), "same bytes");
        Files.writeString(src.resolve("g"), "same bytes");
        sameTimes(src.resolve("f"), src.resolve("g"));
        Path dst = synced(src);

        Files.delete(src.resolve("g"));
        Files.createLink(src.resolve("g"), src.resolve("f"));

        assertEquals(List.of(), SYNC.sync(src, dst, delete).counts().failures());
        assertEquals(inode(dst.resolve("f")), inode(dst.resolve("g")));
        TreeComparator.assertSameTree(src, dst);
    }

    /** DST has a-b linked and c apart; SRC now links a-c and keeps b apart (in another directory, too). */
    @ParameterizedTest(name = "delete {0}")
    @ValueSource(booleans = {false, true})
    void namesLinkedToAnotherInodeAreRelinked(boolean delete) throws IOException {
        Path src = newTree();
        Files.createDirectory(src.resolve("d"));
        Files.writeString(src.resolve("a"), "same bytes");
        Files.createLink(src.resolve("d/b"), src.resolve("a"));
        Files.writeString(src.resolve("d/c"), "same bytes");
        sameTimes(src.resolve("a"), src.resolve("d/c"));
        Files.writeString(src.resolve("d/x"), "x");
        Files.createLink(src.resolve("y"), src.resolve("d/x"));
        Path dst = synced(src);

        separate(src.resolve("d/b"));
        Files.delete(src.resolve("d/c"));
        Files.createLink(src.resolve("d/c"), src.resolve("a"));
        Files.delete(src.resolve("y")); // x alone: its DST copy has one name fewer with --delete
        if (!delete) Files.createLink(src.resolve("y"), src.resolve("d/x"));

        assertEquals(List.of(), SYNC.sync(src, dst, delete).counts().failures());
        assertEquals(inode(dst.resolve("a")), inode(dst.resolve("d/c")));
        assertNotEquals(inode(dst.resolve("a")), inode(dst.resolve("d/b")));
        TreeComparator.assertSameTree(src, dst);
    }

    /**
     * The dry runs (the driver's, and the executors' on local Spark) list what the run does to links: the
     * name SRC split off is copied, the name SRC linked elsewhere is linked, a pair that only lost a name to
     * --delete is kept, and the directories whose names change get their times back.
     */
    @Test
    void theDryRunsListWhatTheRunDoesToLinks() throws IOException {
        Path src = newTree();
        Files.createDirectory(src.resolve("d"));
        Files.writeString(src.resolve("a"), "same bytes");
        Files.createLink(src.resolve("d/b"), src.resolve("a"));
        Files.writeString(src.resolve("d/c"), "same bytes");
        sameTimes(src.resolve("a"), src.resolve("d/c"));
        Files.writeString(src.resolve("d/x"), "x");
        Files.createLink(src.resolve("y"), src.resolve("d/x"));
        Path dst = synced(src);
        separate(src.resolve("d/b"));
        Files.delete(src.resolve("d/c"));
        Files.createLink(src.resolve("d/c"), src.resolve("a"));
        Files.delete(src.resolve("y"));
        JobOptions options = SYNC.jobOptions(src, dst);

        SyncPreview driver = DryRuns.onThreads(options, true, true);
        SyncPreview executors;
        JavaSparkContext sc = new JavaSparkContext(new SparkConf().setAppName("spark-dcp-test").setMaster("local[2]")
                .set("spark.ui.enabled", "false").set("spark.speculation", "false"));
        try (SparkPhaseRunner runner = new SparkPhaseRunner(sc)) {
            executors = DryRuns.onExecutors(options, runner, true, true);
        } finally {
            sc.stop();
        }
        CopyReport run = SYNC.sync(src, dst, true);

        for (SyncPreview preview : List.of(driver, executors)) {
            String which = preview == driver ? "the driver's dry run" : "the executors' dry run";
            assertEquals(List.of("d/b", "d/c"), paths(preview.copy()), which);
            assertEquals(List.of(".", "d"), paths(preview.fixMetadata().stream().map(SyncPreview.Fix::entry).toList()), which);
            assertEquals(List.of("y"), paths(preview.delete()), which);
        }
        assertEquals(List.of(), run.counts().failures());
        assertEquals(2, run.counts().copied(), "d/b copied, d/c linked");
        assertEquals(1, run.counts().deleted());
        TreeComparator.assertSameTree(src, dst);
    }

    private static List<String> paths(List<io.sparkdcp.walk.Entry> entries) {
        return entries.stream().map(e -> PathBytes.display(e.path())).toList();
    }

    /** A flag SRC has and DST lacks: compare names it, and sync sets it. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"+i", "+a", "+d", "+A", "+P"})
    void aFlagOnlySourceHasIsReportedThenSynced(String flag) throws IOException {
        Path src = newTree();
        Path entry = flag.equals("+P") ? Files.createDirectory(src.resolve("e")) : Files.writeString(src.resolve("e"), "flagged");
        Path dst = synced(src);

        InodeFlagsTest.xfsIo(entry, "chattr " + flag);

        String expected = switch (flag) {
            case "+i" -> "e: flags: immutable != none";
            case "+a" -> "e: flags: append-only != none";
            case "+d" -> "e: flags: nodump != none";
            case "+A" -> "e: flags: noatime != none";
            default -> "e: projinherit: set != unset";
        };
        assertEquals(List.of(expected), TreeComparator.differences(src, dst));
        assertEquals(List.of(), SYNC.sync(src, dst, true).counts().failures());
        TreeComparator.assertSameTree(src, dst);
    }

    /** A flag only DST has (SRC cleared it, or someone set it there): compare names it, and sync clears it. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"+d", "+A", "+P"})
    void aFlagOnlyDestinationHasIsReportedThenCleared(String flag) throws IOException {
        Path src = newTree();
        Path entry = flag.equals("+P") ? Files.createDirectory(src.resolve("e")) : Files.writeString(src.resolve("e"), "flagged");
        InodeFlagsTest.xfsIo(entry, "chattr " + flag);
        Path dst = synced(src);

        InodeFlagsTest.xfsIo(entry, "chattr " + flag.replace('+', '-'));

        assertEquals(1, TreeComparator.differences(src, dst).size(), TreeComparator.differences(src, dst).toString());
        assertEquals(List.of(), SYNC.sync(src, dst, false).counts().failures());
        TreeComparator.assertSameTree(src, dst);
    }

    @Test
    void compareNamesExtentSizeHintsThatDiffer() throws IOException {
        Path src = newTree();
        Path f = Files.createFile(src.resolve("f"));
        InodeFlagsTest.xfsIo(f, "extsize 1m");
        Path dst = synced(src);
        InodeFlagsTest.xfsIo(dst.resolve("f"), "extsize 2m"); // an empty file takes a new hint

        assertEquals(List.of("f: extent_hints: extsize 1048576 != extsize 2097152"), TreeComparator.differences(src, dst));
    }

    @Test
    void compareShowsTimesInIsoUtcWithNanoseconds() throws IOException {
        Path src = newTree();
        Files.writeString(src.resolve("f"), "x");
        setMtime(src.resolve("f"), 1_796_186_622L, 123_456_789);
        Path dst = synced(src);
        setMtime(dst.resolve("f"), 1_796_186_622L, 0);

        List<Difference> found = compare(src, dst);
        assertEquals(List.of("f: mtime: 2026-12-02T04:43:42.123456789Z != 2026-12-02T04:43:42.000000000Z"),
                found.stream().map(Difference::describe).toList());
    }

    private static List<Difference> compare(Path src, Path dst) {
        JobOptions options = SYNC.jobOptions(src, dst);
        return new CompareJob(options, 0, new LocalPhaseRunner(2), line -> {}).run().differences();
    }

    private static Path newTree() throws IOException {
        return Files.createDirectory(mount.dir().resolve("src" + ++trees));
    }

    private static Path synced(Path src) throws IOException {
        Path dst = Files.createDirectory(mount.dir().resolve("dst" + trees));
        CopyReport first = SYNC.sync(src, dst, false);
        assertEquals(List.of(), first.counts().failures());
        TreeComparator.assertSameTree(src, dst);
        return dst;
    }

    /** Gives a linked name an inode of its own with the same bytes and times: only link counts tell. */
    static void separate(Path name) throws IOException {
        Path temporary = name.resolveSibling(name.getFileName() + ".new");
        Files.copy(name, temporary);
        sameTimes(name, temporary);
        Files.move(temporary, name, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    private static void sameTimes(Path from, Path to) {
        Stat s = Posix.lstat(PathBytes.of(from.toString()));
        setMtime(to, s.mtimeSec(), s.mtimeNsec());
    }

    private static void setMtime(Path p, long sec, int nsec) {
        try (var dir = Posix.open(PathBytes.of(p.getParent().toString()), io.sparkdcp.posix.Linux.O_RDONLY | io.sparkdcp.posix.Linux.O_DIRECTORY)) {
            Posix.lutimensAt(dir, PathBytes.of(p.getFileName().toString()), sec, nsec, sec, nsec);
        }
    }

    private static long inode(Path p) {
        return Posix.lstat(PathBytes.of(p.toString())).ino();
    }
}

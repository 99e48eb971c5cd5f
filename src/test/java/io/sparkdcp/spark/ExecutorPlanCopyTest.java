package io.sparkdcp.spark;

import io.sparkdcp.copy.CopyCounts;
import io.sparkdcp.job.CopyJob;
import io.sparkdcp.job.exec.JobOptions;
import io.sparkdcp.job.exec.TaskFault;
import io.sparkdcp.job.listing.ListingOptions;
import io.sparkdcp.job.listing.WalkMode;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.Listings;
import io.sparkdcp.testing.LocalCopy;
import io.sparkdcp.walk.Filter;
import io.sparkdcp.walk.SavedListing;
import io.sparkdcp.walk.TreeWalker;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.RichTree;
import io.sparkdcp.testing.TreeComparator;
import org.apache.spark.SparkConf;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The copy whose listing and plan stay on the executors against the driver's plan, on a rich tree
 * with hard links across directories and batches, a deep chain of directories, symlinks, special
 * files and project IDs (local Spark, two slots, up to three attempts per task).
 */
class ExecutorPlanCopyTest {
    private static final int LINK_GROUPS = 12;
    private static final int NAMES_PER_GROUP = 4;
    private static final int DEPTH = 40;

    private static LoopMount mount;
    private static Path source;
    private static JavaSparkContext sc;
    private static int destinations;

    @BeforeAll
    static void start() throws IOException {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.create("executor-plan", 1024);
        source = RichTree.build(Files.createDirectory(mount.dir().resolve("src"))).root();
        addLinksAcrossDirectoriesAndDepth(source);
        sc = new JavaSparkContext(new SparkConf().setAppName("spark-dcp-test").setMaster("local[2,3]")
                .set("spark.ui.enabled", "false").set("spark.speculation", "false"));
    }

    @AfterAll
    static void stop() {
        if (sc != null) sc.stop();
        if (mount != null) mount.close();
    }

    /** Groups of hard links whose names sit in different directories, so they meet only in the shuffle. */
    private static void addLinksAcrossDirectoriesAndDepth(Path root) throws IOException {
        Path many = Files.createDirectory(root.resolve("many"));
        for (int d = 0; d < NAMES_PER_GROUP; d++) Files.createDirectory(many.resolve("d" + d));
        for (int g = 0; g < LINK_GROUPS; g++) {
            Path first = Files.writeString(many.resolve("d0/g" + g), "group " + g);
            for (int d = 1; d < NAMES_PER_GROUP; d++) Files.createLink(many.resolve("d" + d + "/g" + g), first);
            Files.writeString(many.resolve("d" + (g % NAMES_PER_GROUP) + "/plain" + g), "plain " + g);
        }
        Path deep = root.resolve("chain");
        for (int i = 0; i < DEPTH; i++) deep = deep.resolve("level" + i);
        Files.createDirectories(deep);
        Files.writeString(deep.resolve("bottom"), "at the bottom");
    }

    private static LocalCopy copy(WalkMode walk) {
        return LocalCopy.defaults().withChunkSize(1 << 20).withListing(new ListingOptions(walk, null, null));
    }

    private static Path newDestination() throws IOException {
        return Files.createDirectories(mount.dir().resolve("dst" + ++destinations));
    }

    /** The plan on the executors, with walk tasks of a few entries so the listing spreads over many partitions. */
    private static CopyReport onExecutors(LocalCopy how, Path dst, TaskFault fault) {
        try (SparkPhaseRunner runner = new SparkPhaseRunner(sc)) {
            JobOptions job = how.jobOptions(source, dst);
            return new CopyJob(job, runner, line -> {}, total -> {}).fault(fault).walkEntriesPerTask(25).run();
        }
    }

    private static CopyReport onDriver(LocalCopy how, Path dst) {
        try (SparkPhaseRunner runner = new SparkPhaseRunner(sc)) {
            return how.run(source, dst, runner);
        }
    }

    @Test
    void aTreeOfDirectoriesAloneIsCopiedOnTheExecutors() throws IOException {
        Path root = Files.createDirectories(mount.dir().resolve("no-files"));
        Files.createDirectories(root.resolve("a/b"));
        Files.createDirectories(root.resolve("c"));
        Path dst = newDestination();
        CopyReport report;
        try (SparkPhaseRunner runner = new SparkPhaseRunner(sc)) {
            report = new CopyJob(copy(WalkMode.DISTRIBUTED).jobOptions(root, dst), runner, line -> {}, total -> {}).walkEntriesPerTask(25).run();
        }
        assertEquals(List.of(), report.counts().failures());
        TreeComparator.assertSameTree(root, dst);
    }

    @Test
    void theExecutorPlanMakesTheSameTreeAndCountsAsTheDriverPlan() throws IOException {
        Path byDriver = newDestination(), byExecutors = newDestination();
        CopyReport driver = onDriver(copy(WalkMode.DRIVER), byDriver);
        CopyReport executors = onExecutors(copy(WalkMode.DISTRIBUTED), byExecutors, TaskFault.NONE);

        assertEquals(List.of(), executors.counts().failures());
        TreeComparator.assertSameTree(source, byExecutors);
        TreeComparator.assertSameTree(byDriver, byExecutors);
        assertSameCounts(driver.counts(), executors.counts());
        assertEquals(driver.listed().entries(), executors.listed().entries());
        assertEquals(driver.listed().bytes(), executors.listed().bytes());
        assertTrue(executors.counts().links() >= LINK_GROUPS * (NAMES_PER_GROUP - 1), "links: " + executors.counts().links());
        assertEquals("executors", executors.listed().by());
    }

    @Test
    void tasksKilledAfterTheirWorkAreRetriedAndTheTreeAndCountsAreTheSame() throws IOException {
        Path byDriver = newDestination(), byExecutors = newDestination();
        CopyReport driver = onDriver(copy(WalkMode.DRIVER), byDriver);
        CopyReport executors = onExecutors(copy(WalkMode.DISTRIBUTED), byExecutors, phase -> {
            if (TaskContext.get().attemptNumber() == 0) throw new IllegalStateException("injected failure after " + phase);
        });

        assertEquals(List.of(), executors.counts().failures());
        TreeComparator.assertSameTree(source, byExecutors);
        TreeComparator.assertSameTree(byDriver, byExecutors);
        // The first attempt did the work, so its retry finds it done: each entry is counted once, copied or skipped.
        assertEquals(driver.counts().copied(), executors.counts().copied() + executors.counts().skipped());
    }

    @Test
    void aSyncThroughTheExecutorPlanCountsNewDirectoriesAsCopiedAndRepairsDamage() throws IOException {
        Path byDriver = newDestination(), byExecutors = newDestination();
        LocalCopy driverSync = LocalCopy.syncDefaults().withChunkSize(1 << 20).withListing(new ListingOptions(WalkMode.DRIVER, null, null));
        LocalCopy executorSync = driverSync.withListing(new ListingOptions(WalkMode.DISTRIBUTED, null, null));
        CopyReport driver;
        try (SparkPhaseRunner runner = new SparkPhaseRunner(sc)) {
            driver = driverSync.sync(source, byDriver, false, runner);
        }
        CopyReport executors = onExecutors(executorSync, byExecutors, TaskFault.NONE);
        TreeComparator.assertSameTree(source, byExecutors);
        assertSameCounts(driver.counts(), executors.counts());

        Commands.bash("cd '" + byExecutors + "' && rm many/d2/g3 && chmod 700 chain/level0 && rm -r "
                + RichTree.PROJECT_77_DIR + "/sub");
        CopyReport again = onExecutors(executorSync, byExecutors, TaskFault.NONE);
        assertEquals(List.of(), again.counts().failures());
        TreeComparator.assertSameTree(source, byExecutors);
        assertTrue(again.counts().metadataFixed() >= 1, "chain/level0's mode: " + again.counts().metadataFixedByType());
        assertEquals(1, again.counts().copied(FileType.DIRECTORY), "the sub directory is new: " + again.counts().copiedByType());
        assertEquals(1, again.counts().copied(FileType.FILE), "its file: " + again.counts().copiedByType());
        assertEquals(1, again.counts().links(), "the removed name is linked again");
    }

    @Test
    void theExecutorWalkSkipsExcludedDirectoriesAndSyncDeleteSparesThemUnlessDeleteExcluded() throws IOException {
        Filter rules = Filter.NONE.with(Filter.Rule.of(false, "/chain/".getBytes())).with(Filter.Rule.of(false, "g5".getBytes()));
        Path byDriver = newDestination(), byExecutors = newDestination();
        CopyReport driver = onDriver(copy(WalkMode.DRIVER).withListing(new ListingOptions(WalkMode.DRIVER, null, null, rules, false)), byDriver);
        CopyReport executors = onExecutors(copy(WalkMode.DISTRIBUTED).withListing(
                new ListingOptions(WalkMode.DISTRIBUTED, null, null, rules, false)), byExecutors, TaskFault.NONE);

        assertEquals(List.of(), executors.counts().failures());
        assertTrue(Files.notExists(byExecutors.resolve("chain")) && Files.notExists(byExecutors.resolve("many/d1/g5")));
        assertEquals(driver.listed().entries(), executors.listed().entries(), "the excluded directory's entries are not listed");
        TreeComparator.assertSameTree(byDriver, byExecutors);

        // DST's own entries where the rules leave out: --delete spares them, --delete-excluded removes them.
        Commands.bash("cd '" + byExecutors + "' && mkdir -p chain/own && echo x > chain/own/f && echo y > many/d1/g5 && echo z > stray");
        for (boolean deleteExcluded : new boolean[]{false, true}) {
            LocalCopy sync = LocalCopy.syncDefaults().withChunkSize(1 << 20)
                    .withListing(new ListingOptions(WalkMode.DISTRIBUTED, null, null, rules, deleteExcluded));
            CopyReport r;
            try (SparkPhaseRunner runner = new SparkPhaseRunner(sc)) {
                r = new CopyJob(sync.jobOptions(source, byExecutors), runner, line -> {}, total -> {}).deleting(true).walkEntriesPerTask(25).run();
            }
            assertEquals(List.of(), r.counts().failures());
            assertTrue(Files.notExists(byExecutors.resolve("stray")), "what SRC lacks goes either way");
            assertEquals(!deleteExcluded, Files.exists(byExecutors.resolve("chain/own/f")), "--delete-excluded " + deleteExcluded);
            assertEquals(!deleteExcluded, Files.exists(byExecutors.resolve("many/d1/g5")), "--delete-excluded " + deleteExcluded);
        }
    }

    @Test
    void syncDeleteOnTheExecutorsDeletesWhatTheDriverPathDeletesAndSparesMounts() throws IOException {
        Path byDriver = newDestination(), byExecutors = newDestination();
        LocalCopy driverSync = LocalCopy.syncDefaults().withChunkSize(1 << 20).withListing(new ListingOptions(WalkMode.DRIVER, null, null));
        LocalCopy executorSync = driverSync.withListing(new ListingOptions(WalkMode.DISTRIBUTED, null, null));
        List<Path> mounts = new java.util.ArrayList<>();
        try {
            for (Path dst : List.of(byDriver, byExecutors)) {
                onDriver(copy(WalkMode.DRIVER), dst);
                // Extra files and trees, a directory where SRC has a file, a file where SRC has a directory, and a mount.
                Commands.bash("cd '" + dst + "' && echo x > extra && mkdir -p gone/a/b/c && echo y > gone/a/b/c/f && touch gone/a/g"
                        + " && rm many/d1/g5 && mkdir -p many/d1/g5/inside && echo z > many/d1/g5/inside/f"
                        + " && rm -r chain/level0/level1/level2 && echo w > chain/level0/level1/level2"
                        + " && echo v > many/d3/stray && mkdir -p kept/mnt");
                Path mnt = dst.resolve("kept/mnt");
                Commands.run("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", mnt.toString());
                mounts.add(mnt);
                Files.writeString(mnt.resolve("on-tmpfs"), "keep me");
            }
            CopyReport driver;
            try (SparkPhaseRunner runner = new SparkPhaseRunner(sc)) {
                driver = driverSync.sync(source, byDriver, true, runner);
            }
            CopyReport executors;
            try (SparkPhaseRunner runner = new SparkPhaseRunner(sc)) {
                executors = new CopyJob(executorSync.jobOptions(source, byExecutors), runner, line -> {}, total -> {}).deleting(true).walkEntriesPerTask(25).run();
            }
            assertEquals(driver.counts().failures(), executors.counts().failures());
            assertTrue(driver.counts().deleted() >= 12, "deleted: " + driver.counts().deletedByType());
            assertEquals(driver.counts().deletedByType(), executors.counts().deletedByType());
            assertEquals(List.of("kept/mnt"), executors.counts().notices().stream().map(io.sparkdcp.posix.Failure::path).toList());
            assertEquals(driver.counts().notices(), executors.counts().notices());
            for (Path mnt : mounts) assertEquals("keep me", Files.readString(mnt.resolve("on-tmpfs")));
        } finally {
            for (Path mnt : mounts) Commands.run("umount", mnt.toString());
        }
        // What is left: SRC's tree and the spared mount point (made at different times by this test), the same on both sides.
        for (Path dst : List.of(byDriver, byExecutors)) Commands.bash("cd '" + dst + "' && touch -d @1000000000 kept/mnt kept");
        TreeComparator.assertSameTree(byDriver, byExecutors);
    }

    @Test
    void theTasksSaveTheListingInPartsAndACopyReadsItBackOnTheExecutors() throws IOException {
        String saved = mount.dir().resolve("saved-listing").toString();
        Path first = newDestination(), second = newDestination();
        // Walked before the copy that saves: copying reads symlinks, which may move their atimes.
        var walked = new TreeWalker(2, true).walk(PathBytes.of(source.toString()));
        onExecutors(copy(WalkMode.DISTRIBUTED).withListing(new ListingOptions(WalkMode.DISTRIBUTED, null, saved)), first,
                TaskFault.NONE);
        assertTrue(SavedListing.parts(saved).size() > 3, "one part per walk task: " + SavedListing.parts(saved));
        Listings.assertSameListing(walked, SavedListing.read(saved));

        CopyReport reused = onExecutors(copy(WalkMode.DISTRIBUTED).withListing(new ListingOptions(WalkMode.DISTRIBUTED, saved, null)),
                second, TaskFault.NONE);
        assertEquals(List.of(), reused.counts().failures());
        assertEquals("saved", reused.listed().by());
        assertEquals(saved, reused.listed().savedDir());
        TreeComparator.assertSameTree(source, second);
    }

    /**
     * A stage whose output Spark calls INDETERMINATE (a repartition of a shuffle's output) cannot be run again
     * once tasks after it ended: when an executor is lost with its map output, Spark aborts the whole copy
     * ("A shuffle map stage with indeterminate output was failed and retried") instead of retrying the tasks.
     * Every RDD of every stage of an executor-plan copy must be one Spark can recompute.
     */
    @Test
    void noStageOfTheCopyHasOutputSparkCannotRecompute() throws Exception {
        java.util.Set<String> indeterminate = java.util.concurrent.ConcurrentHashMap.newKeySet();
        java.util.concurrent.atomic.AtomicInteger rdds = new java.util.concurrent.atomic.AtomicInteger();
        SparkListener levels = new SparkListener() {
            @Override
            public void onStageSubmitted(org.apache.spark.scheduler.SparkListenerStageSubmitted submitted) {
                for (org.apache.spark.storage.RDDInfo rdd : scala.jdk.javaapi.CollectionConverters.asJava(submitted.stageInfo().rddInfos())) {
                    rdds.incrementAndGet();
                    if ("INDETERMINATE".equals(rdd.outputDeterministicLevel().toString()))
                        indeterminate.add(submitted.stageInfo().name() + ": " + rdd.name() + " " + rdd.callSite());
                }
            }
        };
        Path dst = newDestination();
        sc.sc().addSparkListener(levels);
        try {
            CopyReport report = onExecutors(copy(WalkMode.DISTRIBUTED).withBatchFiles(10), dst, TaskFault.NONE);
            assertEquals(List.of(), report.counts().failures());
        } finally {
            sc.sc().listenerBus().waitUntilEmpty();
            sc.sc().removeSparkListener(levels);
        }
        TreeComparator.assertSameTree(source, dst);
        assertTrue(rdds.get() > 0, "no stage seen");
        assertEquals(java.util.Set.of(), indeterminate);
    }

    @Test
    void theDriverReceivesCountsNotTheListing() throws IOException {
        Path dst = newDestination();
        AtomicLong resultBytes = new AtomicLong();
        SparkListener sizes = new SparkListener() {
            @Override
            public void onTaskEnd(SparkListenerTaskEnd end) {
                if (end.taskMetrics() != null) resultBytes.addAndGet(end.taskMetrics().resultSize());
            }
        };
        Path wide = Files.createDirectories(mount.dir().resolve("wide"));
        for (int i = 0; i < 20_000; i++) Files.createFile(wide.resolve(String.format("file-with-a-long-name-%06d", i)));
        sc.sc().addSparkListener(sizes);
        try (SparkPhaseRunner runner = new SparkPhaseRunner(sc)) {
            LocalCopy how = copy(WalkMode.DISTRIBUTED).withBatchFiles(io.sparkdcp.api.CopyRequest.defaults().batching().batchFiles());
            CopyReport report = new CopyJob(how.jobOptions(wide, dst), runner, line -> {}, total -> {}).run();
            assertEquals(20_001, report.counts().copied());
        } finally {
            sc.sc().removeSparkListener(sizes);
        }
        // The driver plan's listing alone comes back at ~60 bytes per entry; counts are a few KiB per task.
        assertTrue(resultBytes.get() < 20_000 * 10, "task results: " + resultBytes.get() + " bytes for 20,001 entries");
    }

    /**
     * A tree of small files without hard links: the listing is planned into batches by one counting job and
     * copied by one more; no job looks for large files or links, which the walk's summary says there are none of.
     */
    @Test
    void aTreeOfSmallFilesIsPlannedByOneJobAndCopiedByAnother() throws IOException {
        Path small = Files.createDirectories(mount.dir().resolve("small-files"));
        for (int d = 0; d < 6; d++) {
            Path dir = Files.createDirectories(small.resolve("d" + d + "/sub"));
            for (int f = 0; f < 20; f++) Files.writeString(dir.resolve("f" + f), "file " + f);
        }
        Path dst = newDestination();
        List<StageTimes.Phase> phases;
        try (SparkPhaseRunner runner = new SparkPhaseRunner(sc); StageTimes times = StageTimes.listen(sc)) {
            CopyReport report = new CopyJob(copy(WalkMode.DISTRIBUTED).jobOptions(small, dst), runner, line -> {}, total -> {}).walkEntriesPerTask(25).run();
            assertEquals(List.of(), report.counts().failures());
            phases = times.phases();
        }
        TreeComparator.assertSameTree(small, dst);
        java.util.Map<String, Integer> jobs = new java.util.TreeMap<>();
        for (StageTimes.Phase p : phases) if (!p.name().contains("directories")) jobs.put(p.name(), p.jobs());
        assertEquals(java.util.Map.of("walk", jobs.get("walk"), "plan the tasks of copy files", 1, "copy files", 1), jobs);
        assertTrue(jobs.get("walk") > 1, "walk tasks of 25 entries take several rounds: " + jobs);
    }

    /** Persisted RDDs each writing phase's tasks saw (local mode: the tasks share the driver's JVM and context). */
    private static final java.util.Map<String, Integer> PERSISTED_DURING = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * The copy stage holds no more cached data than the directories' stages before it: the batches are cut
     * again from the walk's kept blocks, not kept as a second serialised copy of the listing, which, made just
     * before the copy, was still young when its collections came and cost the executors' plan GC seconds there.
     */
    @Test
    void theCopyStageKeepsNoSecondCopyOfTheListing() throws IOException {
        Path dst = newDestination();
        PERSISTED_DURING.clear();
        CopyReport report = onExecutors(copy(WalkMode.DISTRIBUTED).withBatchFiles(10), dst, phase ->
                PERSISTED_DURING.merge(phase.startsWith("make directories") ? "make directories" : phase,
                        sc.getPersistentRDDs().size(), Math::max));
        assertEquals(List.of(), report.counts().failures());
        TreeComparator.assertSameTree(source, dst);
        assertEquals(PERSISTED_DURING.get("make directories"), PERSISTED_DURING.get("copy files"), PERSISTED_DURING.toString());
    }

    private static void assertSameCounts(CopyCounts expected, CopyCounts actual) {
        assertEquals(expected.copiedByType(), actual.copiedByType(), "copied");
        assertEquals(expected.links(), actual.links(), "links");
        assertEquals(expected.skippedByType(), actual.skippedByType(), "skipped");
        assertEquals(expected.metadataFixedByType(), actual.metadataFixedByType(), "metadata fixed");
        assertEquals(expected.bytesCopied(), actual.bytesCopied(), "bytes");
        assertEquals(expected.failed(), actual.failed(), "failed");
    }
}

package io.sparkdcp.spark;

import io.sparkdcp.bench.latencyfs.LatencyMount;
import io.sparkdcp.bench.latencyfs.LatencyProfile;
import io.sparkdcp.job.CopyJob;
import io.sparkdcp.job.exec.JobOptions;
import io.sparkdcp.job.listing.ListingOptions;
import io.sparkdcp.job.listing.WalkMode;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.LocalCopy;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.TreeComparator;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;
import org.apache.spark.SparkJobInfo;
import org.apache.spark.SparkStageInfo;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A walk round whose persisted blocks are lost after later rounds were walked: Spark computes its
 * partition again when the copy reads it, at another speed (the latency file system's cache is warm
 * by then), and it must list exactly what it listed the first time. The blocks are dropped through
 * Spark's block manager once round 2 has read round 1, as losing the executors that held them would; the
 * report's counts must equal the tree, the copy must be exact, and sync --delete deletes nothing.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LostWalkRoundTest {
    /** Per metadata request: enough that the walk takes several rounds, each cut by its time budget. */
    private static final long LATENCY_NANOS = 200_000;
    private static final int FANOUT = 10;

    private static LoopMount xfs;
    private static Path backing;
    private static Path destination;
    private static long entries;
    private static JavaSparkContext sc;
    private LatencyMount fuse;

    @BeforeAll
    static void start() throws IOException {
        LoopMount.requireRootAndXfs();
        boolean fuseReady = Files.exists(Path.of("/dev/fuse")) && Commands.available("fusermount")
                && (Files.exists(Path.of("/usr/lib/x86_64-linux-gnu/libfuse.so.2")) || Files.exists(Path.of("/usr/lib/aarch64-linux-gnu/libfuse.so.2")));
        if ("true".equals(System.getenv("CI"))) assertTrue(fuseReady, "needs /dev/fuse and libfuse2 (apt-get install libfuse2 fuse)");
        else Assumptions.assumeTrue(fuseReady, "needs /dev/fuse and libfuse2");
        xfs = LoopMount.create("lost-walk-round", 400);
        backing = Files.createDirectory(xfs.dir().resolve("backing"));
        // Three levels of directories, a file in each of the deepest: mostly directories, so the walk is long and the copy short.
        Commands.bash("cd '" + backing + "' && mkdir -p $(printf '%s ' {a..j}/{a..j}/{a..j}) && echo one > file");
        try (Stream<Path> all = Files.walk(backing)) {
            entries = all.count();
        }
        assertEquals(2 + FANOUT + FANOUT * FANOUT + (long) FANOUT * FANOUT * FANOUT, entries);
        destination = Files.createDirectory(xfs.dir().resolve("dst"));
        sc = new JavaSparkContext(new SparkConf().setAppName("spark-dcp-test").setMaster("local[2]")
                .set("spark.ui.enabled", "false").set("spark.speculation", "false"));
    }

    @AfterAll
    static void stop() {
        if (sc != null) sc.stop();
        if (xfs != null) xfs.close();
    }

    /** Mounted afresh for each run, so its first walk meets a cold cache and the lost round's second walk a warm one. */
    @BeforeEach
    void mount() throws IOException {
        Path mountPoint = Files.createDirectories(xfs.dir().resolve("fuse"));
        fuse = LatencyMount.mount(backing, mountPoint, LatencyProfile.lustre(LATENCY_NANOS).withCacheTimeouts(600, 600));
    }

    @AfterEach
    void unmount() {
        if (fuse != null) fuse.close();
    }

    @Test
    @Order(1)
    void aCopyWhoseFirstRoundIsWalkedAgainCountsEachEntryOnceAndIsExact() {
        CopyReport report = runLosingRoundOne(LocalCopy.defaults(), false);
        assertEquals(List.of(), report.counts().failures());
        assertEquals(entries, report.listed().entries(), "entries listed");
        assertEquals(entries, report.counts().copied() + report.counts().skipped(), "entries copied: " + report.counts().copiedByType());
        TreeComparator.assertSameTree(backing, destination);
    }

    @Test
    @Order(2)
    void aSyncDeleteWhoseFirstRoundIsWalkedAgainDeletesNothingTheSourceHas() {
        CopyReport report = runLosingRoundOne(LocalCopy.syncDefaults(), true);
        assertEquals(List.of(), report.counts().failures());
        assertEquals(entries, report.listed().entries(), "entries listed");
        assertEquals(0, report.counts().deleted(), "deleted: " + report.counts().deletedByType());
        TreeComparator.assertSameTree(backing, destination);
    }

    /** Runs the job on the executors' plan, dropping the blocks of the source walk's round 1 during its round 2. */
    private CopyReport runLosingRoundOne(LocalCopy how, boolean delete) {
        List<String> log = new CopyOnWriteArrayList<>();
        DropRound drop = new DropRound();
        sc.sc().addSparkListener(drop);
        try (SparkPhaseRunner runner = new SparkPhaseRunner(sc)) {
            JobOptions job = how.withChunkSize(1 << 20).withListing(new ListingOptions(WalkMode.DISTRIBUTED, null, null))
                    .withThreadsPerTask(8).jobOptions(fuse.dir(), destination);
            CopyReport report = new CopyJob(job, runner, log::add, total -> {}).deleting(delete).run();
            assertTrue(drop.dropped.get(), "round 1's blocks were dropped; the log: " + log);
            return report;
        } finally {
            sc.sc().removeSparkListener(drop);
        }
    }

    /**
     * Once round 2 of the first walk has read round 1's frontier (its walking stage is submitted), removes
     * every persisted block of round 1 (the walk's first persisted RDD) from the executors: nothing in the
     * walk reads them again, the copy does.
     */
    private final class DropRound extends SparkListener {
        private Integer roundOne;
        final AtomicBoolean dropped = new AtomicBoolean();

        @Override
        public void onJobStart(SparkListenerJobStart start) {
            String job = start.properties() == null ? null : start.properties().getProperty("spark.job.description");
            if ("spark-dcp: walk, round 1".equals(job) && roundOne == null) roundOne = Collections.min(sc.getPersistentRDDs().keySet());
            if (!"spark-dcp: walk, round 2".equals(job) || roundOne == null || dropped.get()) return;
            int jobId = start.jobId();
            Thread dropper = new Thread(() -> {
                while (!walkingStageSubmitted(jobId)) LockSupport.parkNanos(2_000_000);
                SparkEnv.get().blockManager().master().removeRdd(roundOne, true);
                dropped.set(true);
            }, "drop-round-1");
            dropper.setDaemon(true);
            dropper.start();
        }

        /** Whether the job's last stage, the one that walks, is submitted: its parents, which read round 1, are done. */
        private boolean walkingStageSubmitted(int jobId) {
            SparkJobInfo job = sc.statusTracker().getJobInfo(jobId);
            if (job == null || job.stageIds().length == 0) return false;
            SparkStageInfo walking = sc.statusTracker().getStageInfo(Arrays.stream(job.stageIds()).max().getAsInt());
            return walking != null && walking.submissionTime() > 0;
        }
    }
}

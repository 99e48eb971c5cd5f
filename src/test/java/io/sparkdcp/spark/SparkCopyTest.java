package io.sparkdcp.spark;

import io.sparkdcp.copy.BatchResult;
import io.sparkdcp.copy.CopyCounts;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.copy.steps.Step;
import io.sparkdcp.copy.steps.StepStats;
import io.sparkdcp.job.listing.ListingOptions;
import io.sparkdcp.job.exec.PhaseRunner;
import io.sparkdcp.job.exec.SourceListing;
import io.sparkdcp.job.listing.WalkMode;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.testing.Listings;
import io.sparkdcp.walk.Listing;
import io.sparkdcp.walk.TreeWalker;
import io.sparkdcp.testing.ForwardingPhaseRunner;
import io.sparkdcp.job.exec.TaskWork;
import io.sparkdcp.progress.Work;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.testing.LocalCopy;
import io.sparkdcp.testing.RichTree;
import io.sparkdcp.testing.TreeComparator;
import io.sparkdcp.testing.LoopMount;
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
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The copy distributed by Spark in local mode (two task slots, up to three attempts per task). */
class SparkCopyTest {
    private static LoopMount mount;
    private static RichTree tree;
    private static JavaSparkContext sc;
    private static int destinations;

    @BeforeAll
    static void start() throws IOException {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.create("spark", 1024);
        tree = RichTree.build(Files.createDirectory(mount.dir().resolve("src")));
        sc = new JavaSparkContext(new SparkConf().setAppName("spark-dcp-test").setMaster("local[2,3]")
                .set("spark.ui.enabled", "false").set("spark.speculation", "false"));
    }

    @AfterAll
    static void stop() {
        if (sc != null) sc.stop();
        if (mount != null) mount.close();
    }

    private static CopyReport copy(Path dst, PhaseRunner runner) throws IOException {
        Files.createDirectories(dst);
        return LocalCopy.defaults().withChunkSize(1 << 20).run(tree.root(), dst, runner);
    }

    private static Path newDestination() {
        return mount.dir().resolve("dst" + ++destinations);
    }

    @Test
    void copiesEveryKindOfEntryExactlyAndStepTotalsMatchOutcomes() throws IOException {
        Path dst = newDestination();
        CopyReport report = copy(dst, new SparkPhaseRunner(sc));
        assertEquals(List.of(), report.counts().failures());
        TreeComparator.assertSameTree(tree.root(), dst);
        assertEquals(tree.entryCount() + 1, report.counts().copied());
        assertStepsMatch(report.counts(), report.steps());
    }

    @Test
    void theExecutorsWalkTheSourceWhenAskedAndTheCopyIsExact() throws IOException {
        Path dst = newDestination();
        Files.createDirectories(dst);
        LocalCopy distributed = LocalCopy.defaults().withChunkSize(1 << 20)
                .withListing(new ListingOptions(WalkMode.DISTRIBUTED, null, null));
        Listing walked = SourceListing.of(distributed.jobOptions(tree.root(), dst), new SparkPhaseRunner(sc), line -> {}, block -> {});
        Listings.assertSameListing(new TreeWalker(2, true).walk(PathBytes.of(tree.root().toString())), walked);
        CopyReport report = distributed.run(tree.root(), dst, new SparkPhaseRunner(sc));
        assertEquals(List.of(), report.counts().failures());
        TreeComparator.assertSameTree(tree.root(), dst);
    }

    @Test
    void rerunSkipsEverything() throws IOException {
        Path dst = newDestination();
        copy(dst, new SparkPhaseRunner(sc));
        CopyReport again = copy(dst, new SparkPhaseRunner(sc));
        assertEquals(0, again.counts().copied());
        assertEquals(tree.entryCount() + 1, again.counts().skipped());
        TreeComparator.assertSameTree(tree.root(), dst);
    }

    @Test
    void rerunAfterDamageRestoresExactly() throws IOException {
        Path dst = newDestination();
        copy(dst, new SparkPhaseRunner(sc));
        io.sparkdcp.testing.Commands.bash("cd '" + dst + "' && rm " + RichTree.BIG_FILE + " && echo x >> " + RichTree.SMALL_FILE
                + " && rm -r " + RichTree.PROJECT_77_DIR + "/sub && chmod 700 " + RichTree.READ_ONLY_DIR);
        CopyReport again = copy(dst, new SparkPhaseRunner(sc));
        assertEquals(List.of(), again.counts().failures());
        TreeComparator.assertSameTree(tree.root(), dst);
        assertTrue(again.counts().copied() >= 5, "big file, small file, the sub directory and its file, readonly: " + again.counts().copied());
    }

    @Test
    void retriedTasksEndWithTheSameTreeAndAreCountedOnce() throws IOException {
        Path dst = newDestination();
        CopyReport report = copy(dst, new FirstAttemptFails(new SparkPhaseRunner(sc)));
        assertEquals(List.of(), report.counts().failures());
        TreeComparator.assertSameTree(tree.root(), dst);
        assertEquals(tree.entryCount() + 1, report.counts().copied() + report.counts().skipped(),
                "each entry reported once, by the attempt that succeeded");
        assertStepsMatch(report.counts(), report.steps());
    }

    @Test
    void refusesSpeculativeExecution() {
        SparkConf conf = sc.getConf().clone().set("spark.speculation", "true");
        JavaSparkContext speculative = new JavaSparkContext(sc.sc()) {
            @Override
            public SparkConf getConf() { return conf; }
        };
        assertThrows(io.sparkdcp.roots.UsageException.class, () -> new SparkPhaseRunner(speculative));
    }

    /** The failed first attempts' step updates reached the accumulator too; Spark must have dropped them. */
    private static void assertStepsMatch(CopyCounts c, StepStats s) {
        // At most once: a file copied in chunks whose finish a failed attempt ended (renamed into place) is counted
        // by the retry's finish, which finds it in place and sets nothing.
        assertTrue(s.count(Step.TIMES) <= c.copied() - c.links(), "times set at most once per copied entry but links: " + s);
        long modeAtCreation = c.copied() - c.links() - c.copied(FileType.SYMLINK) - s.count(Step.MODE);
        assertTrue(modeAtCreation >= 0 && modeAtCreation <= c.copied(FileType.FILE), modeAtCreation + " of " + s);
        assertTrue(s.count(Step.LINK) >= c.links(), s.toString());
    }

    /** Every task's first attempt does its work, records its steps, then dies: Spark retries it. */
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

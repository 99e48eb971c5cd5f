package io.sparkdcp.spark;

import io.sparkdcp.copy.BatchResult;
import io.sparkdcp.copy.CopyCounts;
import io.sparkdcp.copy.CopyEngine;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.copy.steps.StepStats;
import io.sparkdcp.job.CopyJob;
import io.sparkdcp.job.exec.LocalPhaseRunner;
import io.sparkdcp.job.exec.PhaseRunner;
import io.sparkdcp.testing.ForwardingPhaseRunner;
import io.sparkdcp.job.exec.TaskWork;
import io.sparkdcp.plan.FileBatch;
import io.sparkdcp.progress.ProgressPrinter;
import io.sparkdcp.progress.Work;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.testing.LocalCopy;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.RichTree;
import io.sparkdcp.testing.TreeComparator;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Progress during a copy whose only file batch is one Spark task: anything the driver learns
 * before that task ends came with an executor heartbeat.
 */
class LiveProgressTest {
    private static final int FILES = 30;
    /** The copy task waits for the driver to print the progress of its first files, one by one. */
    private static final int FILES_SEEN = 3;
    /** The driver's progress lines; local[2]'s task runs in this JVM and reads them here. */
    private static final List<String> PRINTED = Collections.synchronizedList(new ArrayList<>());
    /** Only bounds a hang: a heartbeat and a progress line come within a second. */
    private static final long DEADLINE_SECONDS = 60;
    private static final Pattern ENTRIES = Pattern.compile("progress: ([\\d,]+)/([\\d,]+) entries, ");

    @Test
    void progressAdvancesWhileTheOnlyTaskRuns() throws Exception {
        LoopMount.requireRootAndXfs();
        try (LoopMount mount = LoopMount.create("progress", 512)) {
            Path src = Files.createDirectory(mount.dir().resolve("src"));
            for (int i = 0; i < FILES; i++) Files.write(src.resolve("f" + i), new byte[10_000]);
            Path dst = Files.createDirectory(mount.dir().resolve("dst"));
            List<String> lines = PRINTED;
            lines.clear();

            JavaSparkContext sc = new JavaSparkContext(new SparkConf().setAppName("spark-dcp-progress").setMaster("local[2]")
                    .set("spark.ui.enabled", "false").set("spark.executor.heartbeatInterval", "300ms"));
            try (SparkPhaseRunner spark = new SparkPhaseRunner(sc);
                 ProgressPrinter printer = new ProgressPrinter(Duration.ofMillis(400), spark::done, lines::add)) {
                PhaseRunner slow = new SlowFileCopies(spark);
                CopyReport report = new CopyJob(LocalCopy.defaults().withBatchFiles(1000).jobOptions(src, dst), slow,
                        message -> {}, printer::planned).run();
                assertEquals(FILES + 1, report.counts().copied());
            } finally {
                sc.stop();
            }

            TreeComparator.assertSameTree(src, dst);
            List<Long> during = new ArrayList<>();
            for (String line : List.copyOf(lines)) {
                Matcher m = ENTRIES.matcher(line);
                assertTrue(m.lookingAt(), line);
                assertEquals(FILES + 1, number(m.group(2)), line);
                long done = number(m.group(1));
                if (done > 1 && done < FILES + 1 && !during.contains(done)) during.add(done);
            }
            assertTrue(during.size() >= FILES_SEEN, "progress moved fewer than twice while the copy task ran: " + lines);
            assertEquals(during.stream().sorted().toList(), during, "progress went backwards: " + lines);
        }
    }

    /**
     * Every kind of entry, hard links, a sparse file and chunked files included: done ends with every entry listed
     * and the bytes the summary counts as copied, and the total, as the work done moved it, with those bytes too.
     */
    @Test
    void whatIsDoneAddsUpToWhatWasListedAndCopied() throws Exception {
        LoopMount.requireRootAndXfs();
        try (LoopMount mount = LoopMount.create("progress-totals", 1024)) {
            Path src = RichTree.build(Files.createDirectory(mount.dir().resolve("src"))).root();
            LocalCopy copy = LocalCopy.defaults().withChunkSize(1 << 20);
            LocalPhaseRunner local = new LocalPhaseRunner(2);
            AtomicReference<Work> planned = new AtomicReference<>();
            CopyReport report = new CopyJob(copy.jobOptions(src, Files.createDirectory(mount.dir().resolve("dst-local"))), local,
                    message -> {}, planned::set).run();
            assertTrue(planned.get().bytes() < report.listed().bytes(), "the sparse file's holes are not in the total");
            Work copied = new Work(report.listed().entries(), report.counts().bytesCopied(), report.counts().bytesCopied() - planned.get().bytes());
            assertEquals(copied, local.done());

            JavaSparkContext sc = new JavaSparkContext(new SparkConf().setAppName("spark-dcp-progress").setMaster("local[2]")
                    .set("spark.ui.enabled", "false"));
            try (SparkPhaseRunner spark = new SparkPhaseRunner(sc)) {
                new CopyJob(copy.jobOptions(src, Files.createDirectory(mount.dir().resolve("dst-spark"))), spark, message -> {}, w -> {}).run();
                spark.settled(); // task ends reach listeners asynchronously, shortly after the job returns
                assertEquals(copied, spark.done());
            } finally {
                sc.stop();
            }
        }
    }

    private static long number(String digits) {
        return Long.parseLong(digits.replace(",", ""));
    }

    /**
     * The file phase copies its batch one entry at a time, in one task, and after each of the first
     * {@link #FILES_SEEN} waits until a printed line shows it done: it reached the driver before the task ended.
     */
    private record SlowFileCopies(PhaseRunner delegate) implements ForwardingPhaseRunner {
        @Override
        @SuppressWarnings("unchecked")
        public <T> List<BatchResult> run(String phase, List<T> tasks, CopyOptions options, TaskWork<T> work) {
            if (!phase.equals("copy files")) return delegate.run(phase, tasks, options, work);
            TaskWork<FileBatch> files = (TaskWork<FileBatch>) work;
            return delegate.run(phase, (List<FileBatch>) tasks, options, (engine, batch) -> oneByOne(files, engine, batch));
        }

        private static BatchResult oneByOne(TaskWork<FileBatch> work, CopyEngine engine, FileBatch batch) {
            CopyCounts counts = new CopyCounts();
            int copied = 0;
            boolean shown = true;
            for (var entry : batch.entries()) {
                counts.merge(work.run(engine, FileBatch.of(batch.id(), List.of(entry), List.of())).counts());
                if (shown && ++copied <= FILES_SEEN) shown = awaitPrinted(1 + copied); // the root directory, then the files so far
            }
            return BatchResult.of(counts);
        }

        /** Polls the printed lines until one shows done entries: false at the deadline (the test's check then fails). */
        private static boolean awaitPrinted(long done) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_SECONDS);
            while (List.copyOf(PRINTED).stream().map(ENTRIES::matcher).noneMatch(m -> m.lookingAt() && number(m.group(1)) >= done)) {
                if (System.nanoTime() > deadline) return false;
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
            return true;
        }
    }
}

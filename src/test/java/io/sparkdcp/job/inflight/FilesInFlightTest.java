package io.sparkdcp.job.inflight;

import io.sparkdcp.copy.steps.Step;
import io.sparkdcp.job.CopyJob;
import io.sparkdcp.job.exec.JobOptions;
import io.sparkdcp.job.exec.LocalPhaseRunner;
import io.sparkdcp.progress.Work;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.testing.LocalCopy;
import io.sparkdcp.testing.MountedSource;
import io.sparkdcp.testing.RichTree;
import io.sparkdcp.testing.TreeComparator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Several files in flight per task: the same tree as one at a time, hard links included. */
class FilesInFlightTest {
    @RegisterExtension
    static final MountedSource source = MountedSource.richTree("inflight", 600);

    @Test
    void slicesAreContiguousNearlyEqualAndNeverEmpty() {
        List<Integer> items = List.of(1, 2, 3, 4, 5, 6, 7);
        assertEquals(List.of(List.of(1, 2), List.of(3, 4), List.of(5, 6, 7)), SlicesInFlight.slices(items, 3));
        assertEquals(2, SlicesInFlight.slices(List.of(1, 2), 16).size());
        assertEquals(List.of(), SlicesInFlight.slices(List.of(), 4));
    }

    @Test
    void aWholeTreeCopiedSixFilesAtATimePerTaskIsExactHardLinksIncluded() throws IOException {
        Path dst = Files.createDirectory(source.mount().dir().resolve("dst-six"));
        // One large batch, so that the hard links' targets land in other slices than the links.
        LocalCopy how = LocalCopy.defaults().withBatchFiles(10_000);
        JobOptions options = how.withThreadsPerTask(6).jobOptions(source.tree().root(), dst);
        CopyReport report = new CopyJob(options, new LocalPhaseRunner(2), line -> {}).run();
        assertEquals(List.of(), report.counts().failures());
        assertTrue(report.counts().links() >= 3, "hard links made: " + report.counts().links());
        assertTrue(report.steps().count(Step.OPEN_SRC) > 0, "the slices' steps reach the task's recorder");
        TreeComparator.assertSameTree(source.tree().root(), dst);
    }

    @Test
    void directoriesAreMadeAndFinishedSeveralAtATimeLevelByLevel() throws IOException {
        Path dst = Files.createDirectory(source.newDestinationPath());
        JobOptions options = LocalCopy.defaults().jobOptions(source.tree().root(), dst);
        List<io.sparkdcp.walk.Entry> directories = new io.sparkdcp.walk.TreeWalker(2, true).walk(
                io.sparkdcp.posix.PathBytes.of(source.tree().root().toString())).entries().stream()
                .filter(e -> e.type() == io.sparkdcp.posix.FileType.DIRECTORY)
                .sorted(java.util.Comparator.comparingInt(e -> io.sparkdcp.posix.PathBytes.depth(e.path()))).toList();
        Set<String> threads = ConcurrentHashMap.newKeySet();
        io.sparkdcp.copy.steps.StepRecorder watching = (step, nanos) -> {
            if (step == Step.MKDIR || step == Step.TIMES) threads.add(Thread.currentThread().getName());
        };
        try (io.sparkdcp.copy.CopyEngine engine = new io.sparkdcp.copy.CopyEngine(options.copy(), watching)) {
            var made = new DirectoriesInFlight(4, false).run(engine, directories);
            assertEquals(directories.size() - 1, made.directoriesCreated().size(), "all but the root are new");
            List<io.sparkdcp.walk.Entry> deepestFirst = new java.util.ArrayList<>(directories);
            java.util.Collections.reverse(deepestFirst);
            assertEquals(List.of(), new DirectoriesInFlight(4, true).run(engine, deepestFirst).counts().failures());
        }
        assertTrue(threads.size() > 1, "directories in flight on several threads: " + threads);
        byte[] root = io.sparkdcp.posix.PathBytes.of(dst.toString());
        for (io.sparkdcp.walk.Entry d : directories) {
            io.sparkdcp.posix.Stat made = io.sparkdcp.posix.Posix.lstat(d.isRoot() ? root : io.sparkdcp.posix.PathBytes.join(root, d.path()));
            assertTrue(d.stat().sameMtime(made) && d.stat().permissions() == made.permissions(), d.display());
        }
    }

    @Test
    void slicesShareTheTaskRootsAndWhatItKnowsOfDestinationDirectories() throws IOException {
        Path src = Files.createDirectory(source.mount().dir().resolve("slices-src"));
        Path dst = Files.createDirectory(source.newDestinationPath());
        List<io.sparkdcp.walk.Entry> files = new java.util.ArrayList<>();
        for (String name : List.of("a", "b", "c")) {
            Files.writeString(src.resolve(name), name);
            byte[] path = io.sparkdcp.posix.PathBytes.of(name);
            files.add(new io.sparkdcp.walk.Entry(path, io.sparkdcp.posix.Posix.lstat(io.sparkdcp.posix.PathBytes.of(src.resolve(name).toString())), null));
        }
        io.sparkdcp.copy.options.CopyOptions options = LocalCopy.defaults().jobOptions(src, dst).copy();
        io.sparkdcp.copy.steps.StepStats first = new io.sparkdcp.copy.steps.StepStats();
        io.sparkdcp.copy.steps.StepStats second = new io.sparkdcp.copy.steps.StepStats();
        try (io.sparkdcp.copy.CopyEngine task = new io.sparkdcp.copy.CopyEngine(options, new io.sparkdcp.copy.steps.StepStats())) {
            try (io.sparkdcp.copy.CopyEngine slice = task.slice(first, io.sparkdcp.copy.ProgressRecorder.NONE)) {
                assertEquals(List.of(), slice.copyFiles(files.subList(0, 1), List.of()).counts().failures());
            }
            try (io.sparkdcp.copy.CopyEngine slice = task.slice(second, io.sparkdcp.copy.ProgressRecorder.NONE)) {
                assertEquals(List.of(), slice.copyFiles(files.subList(1, 2), List.of()).counts().failures());
            }
            assertEquals(List.of(), task.copyFiles(files.subList(2, 3), List.of()).counts().failures(),
                    "the task's roots stay open when its slices close");
        }
        // Each file's name is looked at once before its copy is linked there; the root's state only by the first slice.
        assertEquals(2, first.count(Step.STAT_DST), "the first slice reads the destination root's state and its file's name");
        assertEquals(1, second.count(Step.STAT_DST), "the second knows the root's from the first");
        for (String name : List.of("a", "b", "c")) assertEquals(name, Files.readString(dst.resolve(name)));
    }

    @Test
    void levelsAreRunsOfOneDepthInOrder() {
        var s = io.sparkdcp.posix.Stat.of(io.sparkdcp.posix.FileType.DIRECTORY).permissions(0755).nlink(2).build();
        List<io.sparkdcp.walk.Entry> dirs = java.util.stream.Stream.of("a/b", "c/d", "a", "c", "")
                .map(p -> new io.sparkdcp.walk.Entry(io.sparkdcp.posix.PathBytes.of(p), s, null)).toList();
        assertEquals(List.of(List.of("a/b", "c/d"), List.of("a", "c"), List.of(".")),
                DirectoriesInFlight.levels(dirs).stream().map(l -> l.stream().map(io.sparkdcp.walk.Entry::display).toList()).toList());
    }

    @Test
    void progressCountsEveryEntryWhenATaskHasSeveralFilesInFlight() throws IOException {
        Path dst = Files.createDirectory(source.newDestinationPath());
        LocalPhaseRunner runner = new LocalPhaseRunner(2);
        JobOptions options = LocalCopy.defaults().withBatchFiles(10_000).withThreadsPerTask(4).jobOptions(source.tree().root(), dst);
        java.util.concurrent.atomic.AtomicReference<Work> planned = new java.util.concurrent.atomic.AtomicReference<>();
        CopyReport report = new CopyJob(options, runner, line -> {}, planned::set).run();
        Work done = runner.done();
        assertEquals(report.listed().entries(), done.entries());
        assertEquals(report.counts().bytesCopied(), done.bytes(), "the bytes done are the bytes copied");
        assertEquals(report.counts().bytesCopied(), planned.get().replannedBy(done).bytes(), "and so is the total in the end");
    }
}

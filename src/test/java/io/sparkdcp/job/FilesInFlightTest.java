package io.sparkdcp.job;

import io.sparkdcp.copy.Step;
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
        assertEquals(List.of(List.of(1, 2), List.of(3, 4), List.of(5, 6, 7)), FilesInFlight.slices(items, 3));
        assertEquals(2, FilesInFlight.slices(List.of(1, 2), 16).size());
        assertEquals(List.of(), FilesInFlight.slices(List.of(), 4));
    }

    @Test
    void aWholeTreeCopiedSixFilesAtATimePerTaskIsExactHardLinksIncluded() throws IOException {
        Path dst = Files.createDirectory(source.mount().dir().resolve("dst-six"));
        // One large batch, so that the hard links' targets land in other slices than the links.
        LocalCopy how = LocalCopy.defaults().withBatchFiles(10_000);
        JobOptions options = how.jobOptions(source.tree().root(), dst).withFilesInFlight(6);
        CopyReport report = new CopyJob(options, new LocalPhaseRunner(2), line -> {}).run();
        assertEquals(List.of(), report.counts().failures());
        assertTrue(report.counts().links() >= 3, "hard links made: " + report.counts().links());
        assertTrue(report.steps().count(Step.OPEN_SRC) > 0, "the slices' steps reach the task's recorder");
        TreeComparator.assertSameTree(source.tree().root(), dst);
    }

    @Test
    void zeroFilesInFlightIsRefused() {
        JobOptions options = LocalCopy.defaults().jobOptions(source.tree().root(), source.mount().dir());
        assertThrows(IllegalArgumentException.class, () -> options.withFilesInFlight(0));
    }

    @Test
    void progressCountsEveryEntryWhenATaskHasSeveralFilesInFlight() throws IOException {
        Path dst = Files.createDirectory(source.newDestinationPath());
        LocalPhaseRunner runner = new LocalPhaseRunner(2);
        JobOptions options = LocalCopy.defaults().withBatchFiles(10_000).jobOptions(source.tree().root(), dst).withFilesInFlight(4);
        CopyReport report = new CopyJob(options, runner, line -> {}).run();
        assertEquals(new Work(report.entriesListed(), report.bytesListed()), runner.done());
    }
}

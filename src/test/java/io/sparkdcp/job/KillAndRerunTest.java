package io.sparkdcp.job;

import io.sparkdcp.copy.options.CopyModes;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.Stat;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.testing.CopyTreeMain;
import io.sparkdcp.testing.LocalCopy;
import io.sparkdcp.testing.MountedSource;
import io.sparkdcp.testing.TreeComparator;
import io.sparkdcp.testing.TreeFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SIGKILL to a copy process mid-copy, then a re-run: the tree compares exact, and the re-run skipped
 * exactly the files the killed run had completed (their final times were set) and copied the rest.
 */
class KillAndRerunTest {
    private static final int DIRECTORIES = 20;
    private static final int FILES_PER_DIRECTORY = 100;
    private static final int FILE_SIZE = 64 << 10;
    private static final int KILL_AFTER_FILES = 200;
    private static final long FILES = (long) DIRECTORIES * FILES_PER_DIRECTORY;

    @RegisterExtension
    static final MountedSource source = MountedSource.manyFiles("kill", DIRECTORIES, FILES_PER_DIRECTORY, FILE_SIZE);

    @Test
    void aCopyKilledMidwayIsCompletedExactlyByARerunThatSkipsWhatWasDone() throws Exception {
        Path dst = Files.createDirectory(source.mount().dir().resolve("dst"));
        killMidway(dst, "fsync");

        long complete = TreeFiles.regularFiles(dst).stream().filter(KillAndRerunTest::complete).count();
        assertTrue(complete > 0 && complete < FILES, "killed mid-copy: " + complete + " complete");

        CopyReport rerun = LocalCopy.defaults().run(source.source(), dst);

        assertEquals(List.of(), rerun.counts().failures());
        TreeComparator.assertSameTree(source.source(), dst);
        assertEquals(complete, rerun.counts().skipped(FileType.FILE), "what was complete is skipped");
        assertEquals(FILES - complete, rerun.counts().copied(FileType.FILE));
    }

    @Test
    void anAtomicCopyKilledMidwayHasOnlyCompleteFilesUnderFinalNamesAndItsTemporariesAreCleaned() throws Exception {
        Path dst = Files.createDirectory(source.mount().dir().resolve("dst-atomic"));
        killMidway(dst, "fsync", "atomic");

        List<Path> finalNames = TreeFiles.regularFiles(dst).stream().filter(p -> !p.getFileName().toString().startsWith(".spark-dcp.")).toList();
        assertTrue(!finalNames.isEmpty() && finalNames.size() < FILES, "killed mid-copy: " + finalNames.size() + " in place");
        assertTrue(finalNames.stream().allMatch(KillAndRerunTest::complete), "a file under its final name is always complete");

        CopyReport rerun = LocalCopy.defaults().withModes(CopyModes.of(CopyModes.Mode.ATOMIC)).run(source.source(), dst);

        assertEquals(List.of(), rerun.counts().failures());
        TreeComparator.assertSameTree(source.source(), dst); // would also list any temporary left behind
        assertEquals(finalNames.size(), rerun.counts().skipped(FileType.FILE));
    }

    /** Starts a copy of src to dst in its own JVM and SIGKILLs it once some files are there. */
    private static void killMidway(Path dst, String... modes) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), CopyTreeMain.class.getName(), source.source().toString(), dst.toString(), "fd"));
        command.addAll(List.of(modes));
        Process copy = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            while (TreeFiles.regularFiles(dst).size() < KILL_AFTER_FILES && copy.isAlive() && System.nanoTime() < deadline) Thread.sleep(20);
            assertTrue(copy.isAlive(), "the copy must still be running when it is killed");
        } finally {
            copy.destroyForcibly(); // SIGKILL
            copy.waitFor(1, TimeUnit.MINUTES);
        }
    }

    /** The killed run finished this file: it has the source's size and final mtime. */
    private static boolean complete(Path copy) {
        Stat c = Posix.lstat(PathBytes.of(copy.toString()));
        Stat s = Posix.lstat(PathBytes.of(source.source().resolve(copy.getParent().getFileName().toString()).resolve(copy.getFileName().toString()).toString()));
        return c.size() == s.size() && c.sameMtime(s) && c.permissions() == s.permissions();
    }
}

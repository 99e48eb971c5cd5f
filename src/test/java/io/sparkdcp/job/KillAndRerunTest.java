package io.sparkdcp.job;

import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.Stat;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.testing.CopyTreeMain;
import io.sparkdcp.testing.LocalCopy;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.TreeComparator;
import io.sparkdcp.testing.TreeFiles;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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

    private static LoopMount mount;
    private static Path src;

    @BeforeAll
    static void build() throws IOException {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.createWithoutReflink("kill", 1024);
        src = Files.createDirectory(mount.dir().resolve("src"));
        TreeFiles.buildMany(src, DIRECTORIES, FILES_PER_DIRECTORY, FILE_SIZE);
    }

    @AfterAll
    static void unmount() {
        if (mount != null) mount.close();
    }

    @Test
    void aCopyKilledMidwayIsCompletedExactlyByARerunThatSkipsWhatWasDone() throws Exception {
        Path dst = Files.createDirectory(mount.dir().resolve("dst"));
        Process copy = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), CopyTreeMain.class.getName(),
                src.toString(), dst.toString(), "fd", "fsync")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            while (TreeFiles.regularFiles(dst).size() < KILL_AFTER_FILES && copy.isAlive() && System.nanoTime() < deadline) Thread.sleep(20);
            assertTrue(copy.isAlive(), "the copy must still be running when it is killed");
        } finally {
            copy.destroyForcibly(); // SIGKILL
            copy.waitFor(1, TimeUnit.MINUTES);
        }

        long complete = TreeFiles.regularFiles(dst).stream().filter(KillAndRerunTest::complete).count();
        assertTrue(complete > 0 && complete < (long) DIRECTORIES * FILES_PER_DIRECTORY, "killed mid-copy: " + complete + " complete");

        CopyReport rerun = LocalCopy.defaults().run(src, dst);

        assertEquals(List.of(), rerun.counts().failures());
        TreeComparator.assertSameTree(src, dst);
        assertEquals(complete, rerun.counts().skipped(FileType.FILE), "what was complete is skipped");
        assertEquals((long) DIRECTORIES * FILES_PER_DIRECTORY - complete, rerun.counts().copied(FileType.FILE));
    }

    /** The killed run finished this file: it has the source's size and final mtime. */
    private static boolean complete(Path copy) {
        Stat c = Posix.lstat(PathBytes.of(copy.toString()));
        Stat s = Posix.lstat(PathBytes.of(src.resolve(copy.getParent().getFileName().toString()).resolve(copy.getFileName().toString()).toString()));
        return c.size() == s.size() && c.sameMtime(s) && c.permissions() == s.permissions();
    }
}

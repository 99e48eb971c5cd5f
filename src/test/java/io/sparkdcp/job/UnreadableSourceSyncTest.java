package io.sparkdcp.job;

import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.CopyTreeMain;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.ReadableClasspath;
import io.sparkdcp.testing.TreeFiles;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * sync --delete by a user who cannot read part of SRC (a 0000 directory): the walk reports the
 * error, so what SRC lacks is unknown and nothing at DST is deleted — not even the copies of the
 * unreadable subtree's files, which a naive sync would take for deleted ones. The run exits 1.
 */
class UnreadableSourceSyncTest {
    private static final int USER = 1001;
    private static LoopMount mount;
    private static String classpath;

    @BeforeAll
    static void mount() {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.create("unreadable", 400);
    }

    /** The test classes and jars where the user can read them: copied once, the mount holds one copy. */
    private static synchronized String classpath() {
        if (classpath == null) classpath = ReadableClasspath.copyTo(mount.dir().resolve("classpath"));
        return classpath;
    }

    @AfterAll
    static void unmount() {
        if (mount != null) mount.close();
    }

    @Test
    void nothingIsDeletedWhenTheSourceWalkFails() throws Exception {
        Path src = mount.dir().resolve("src");
        Path dst = mount.dir().resolve("dst");
        Commands.bash("set -e; mkdir -p '" + src + "/locked' '" + dst + "/locked' '" + dst + "/gone-dir'; cd '" + src + "'"
                + "; echo kept > kept; echo secret > locked/secret"
                + "; cp -a locked/secret '" + dst + "/locked/secret'; echo stale > '" + dst + "/stale'"
                + "; echo stale > '" + dst + "/gone-dir/inner'"
                + "; chown -R " + USER + ":" + USER + " . '" + dst + "'; chmod 0000 locked");
        List<Path> before = TreeFiles.everything(dst);
        String classpath = classpath();

        Process p = new ProcessBuilder("setpriv", "--reuid=" + USER, "--regid=" + USER, "--clear-groups",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", classpath,
                CopyTreeMain.class.getName(), src.toString(), dst.toString(), "fd", "sync", "delete")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertTrue(p.waitFor(3, TimeUnit.MINUTES), "sync as user timed out");

        assertEquals(1, p.exitValue(), "a walk error and a refused deletion fail the run");
        List<Path> after = TreeFiles.everything(dst);
        assertTrue(after.containsAll(before), "nothing deleted: before " + before + ", after " + after);
        assertEquals("stale\n", Files.readString(dst.resolve("stale")));
        assertEquals("kept\n", Files.readString(dst.resolve("kept")), "the readable rest is still synced");
    }

    /**
     * The unreadable directory is copied with its 0000 mode, so a re-run by the same user cannot open
     * DST's copy either: making and finishing it fail with the walk's words. One failure, shown once.
     */
    @Test
    void aReRunShowsTheUnreadableDirectoryOnce() throws Exception {
        Path src = mount.dir().resolve("again/src");
        Path dst = mount.dir().resolve("again/dst");
        Commands.bash("set -e; mkdir -p '" + src + "/locked' '" + dst + "'; cd '" + src + "'; echo kept > kept"
                + "; echo secret > locked/secret; chown -R " + USER + ":" + USER + " '" + src.getParent() + "'; chmod 0000 locked");
        String classpath = classpath();
        for (int run = 1; run <= 2; run++) {
            Process p = new ProcessBuilder("setpriv", "--reuid=" + USER, "--regid=" + USER, "--clear-groups",
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", classpath,
                    CopyTreeMain.class.getName(), src.toString(), dst.toString(), "fd").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            assertTrue(p.waitFor(3, TimeUnit.MINUTES), "copy as user timed out");
            assertEquals(1, p.exitValue(), out);
            assertTrue(out.contains("failed 1\n"), "run " + run + ":\n" + out);
            assertEquals(1, out.lines().filter(l -> l.startsWith("locked: ")).count(), "run " + run + ":\n" + out);
        }
    }
}

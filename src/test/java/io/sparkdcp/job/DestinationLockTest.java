package io.sparkdcp.job;

import io.sparkdcp.testing.CopyTreeMain;
import io.sparkdcp.testing.LocalCopy;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.TreeComparator;
import io.sparkdcp.testing.TreeFiles;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One run per DST at a time: a copy process stopped after its walk holds DST; a second process (and a
 * job in this JVM) is refused with exit 2 and the holder's pid and host, and changes nothing; once the
 * first run ends (or is killed) the next one runs.
 */
class DestinationLockTest {
    private static LoopMount mount;
    private static Path src;

    @BeforeAll
    static void build() throws IOException {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.create("dstlock", 300);
        src = Files.createDirectories(mount.dir().resolve("src"));
        TreeFiles.buildMany(src, 3, 20, 1000);
    }

    @AfterAll
    static void unmount() {
        if (mount != null) mount.close();
    }

    private static ProcessBuilder copyProcess(Path dst, String... words) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), CopyTreeMain.class.getName(), src.toString(), dst.toString(), "fd"));
        command.addAll(List.of(words));
        return new ProcessBuilder(command);
    }

    /** Starts a copy that stops before copying files, holding DST, and returns once it says so. */
    private static Process holder(Path dst, String... words) throws IOException {
        List<String> all = new ArrayList<>(List.of(words));
        all.add("pause");
        Process p = copyProcess(dst, all.toArray(String[]::new)).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        assertEquals("paused", out.readLine(), "the first run reaches its pause");
        return p;
    }

    @Test
    void aSecondRunIntoTheSameDestinationIsRefusedWhileTheFirstHoldsIt() throws Exception {
        Path dst = Files.createDirectory(mount.dir().resolve("dst"));
        Process first = holder(dst);
        try {
            List<Path> before = TreeFiles.everything(dst);
            Process second = copyProcess(dst, "sync", "delete").redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            String err = new String(second.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            assertTrue(second.waitFor(2, TimeUnit.MINUTES));

            assertEquals(2, second.exitValue(), err);
            String hostname = Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
            assertEquals("spark-dcp: another spark-dcp run holds DST " + dst + " (pid " + first.pid() + ", host " + hostname
                    + "); wait for it to end, or stop it", err);
            UsageException inProcess = assertThrows(UsageException.class, () -> LocalCopy.defaults().run(src, dst));
            assertTrue(inProcess.getMessage().contains("pid " + first.pid()), inProcess.getMessage());
            assertEquals(before, TreeFiles.everything(dst), "the refused runs wrote nothing");

            try (OutputStream release = first.getOutputStream()) {
                release.write('\n');
            }
            assertTrue(first.waitFor(2, TimeUnit.MINUTES));
            assertEquals(0, first.exitValue(), "the holder finishes its copy");
        } finally {
            first.destroyForcibly().waitFor();
        }
        assertEquals(0, LocalCopy.defaults().run(src, dst).exitCode(), "free again once the holder ended");
        TreeComparator.assertSameTree(src, dst);
    }

    @Test
    void aKilledHolderLeavesNoLockBehind() throws Exception {
        Path dst = Files.createDirectory(mount.dir().resolve("dst-killed"));
        Process first = holder(dst, "atomic");
        first.destroyForcibly().waitFor(); // SIGKILL

        assertEquals(0, LocalCopy.defaults().run(src, dst).exitCode());
        TreeComparator.assertSameTree(src, dst);
        assertEquals(List.of(), TreeFiles.everything(dst).stream().filter(p -> p.getFileName().toString().contains("lock")).toList(),
                "the lock is no entry of DST");
    }
}

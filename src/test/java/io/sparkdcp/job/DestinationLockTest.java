package io.sparkdcp.job;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkdcp.cli.Main;
import io.sparkdcp.roots.UsageException;
import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.Flocks;
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
import java.io.RandomAccessFile;
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
 * One run at a time in a DST, inside it or above it: a copy process stopped after its walk holds DST; a
 * second process (and a job in this JVM) into DST, into a directory inside it or into one above it,
 * however named (a symlink, a bind mount), is refused with exit 2 and the holder's pid and host, and
 * changes nothing; a run into a sibling DST runs; once the first run ends (or is killed) the next one runs.
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

    /** The spark-dcp command (without --master: on threads) in a process of its own: its exit code and output. */
    private static Commands.Result command(String... args) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(List.of(args));
        return Commands.tryRun(new ProcessBuilder(command));
    }

    /** {@code spark-dcp sync --mkpath --delete EMPTY/ dst}, which would empty dst. */
    private static Commands.Result emptyingSync(Path dst) throws IOException {
        Path empty = Files.createDirectories(mount.dir().resolve("empty"));
        return command("sync", "--mkpath", "--delete", empty + "/", dst.toString());
    }

    private static String hostname() throws IOException {
        return Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
    }

    /** Lets the holder copy its files and end; asserts it copied everything. */
    private static void release(Process holder, Path dst) throws Exception {
        try (OutputStream release = holder.getOutputStream()) {
            release.write('\n');
        }
        assertTrue(holder.waitFor(2, TimeUnit.MINUTES));
        assertEquals(0, holder.exitValue(), "the holder finishes its copy");
        TreeComparator.assertSameTree(src, dst);
    }

    @Test
    void aRunIntoADestinationInsideAHeldOneIsRefused() throws Exception {
        Path dst = Files.createDirectory(mount.dir().resolve("dst-outer"));
        Process first = holder(dst);
        try {
            List<Path> before = TreeFiles.everything(dst);
            Commands.Result inside = emptyingSync(dst.resolve("d0")); // made by the holder, its files still to come
            assertEquals(2, inside.exitCode(), inside.stderr());
            assertEquals("spark-dcp: another spark-dcp run holds DST " + dst + ", and DST " + dst.resolve("d0") + " is inside it (pid "
                    + first.pid() + ", host " + hostname() + "); wait for it to end, or stop it", inside.stderr().strip());
            Commands.Result deeper = emptyingSync(dst.resolve("d1/new/deeper"));
            assertEquals(2, deeper.exitCode(), deeper.stderr());
            assertTrue(deeper.stderr().contains("holds DST " + dst + ", and DST "), deeper.stderr());
            Path link = Files.createSymbolicLink(mount.dir().resolve("link-into-outer"), dst.resolve("d2"));
            Commands.Result throughLink = emptyingSync(link);
            assertEquals(2, throughLink.exitCode(), throughLink.stderr());
            assertEquals(before, TreeFiles.everything(dst), "the refused runs wrote nothing, not even their missing DST");
            release(first, dst);
        } finally {
            first.destroyForcibly().waitFor();
        }
    }

    @Test
    void aRunIntoADestinationAboveAHeldOneIsRefused() throws Exception {
        Path above = Files.createDirectories(mount.dir().resolve("above/middle"));
        Path dst = Files.createDirectory(above.resolve("dst"));
        Process first = holder(dst);
        try {
            List<Path> before = TreeFiles.everything(above.getParent());
            Commands.Result parent = emptyingSync(above);
            assertEquals(2, parent.exitCode(), parent.stderr());
            assertEquals("spark-dcp: another spark-dcp run holds a DST inside DST " + above + " (pid " + first.pid() + ", host "
                    + hostname() + "); wait for it to end, or stop it", parent.stderr().strip());
            Commands.Result grandparent = command("copy", src + "/", above.getParent().toString());
            assertEquals(2, grandparent.exitCode(), grandparent.stderr());
            UsageException inProcess = assertThrows(UsageException.class, () -> LocalCopy.defaults().run(src, above.getParent()));
            assertTrue(inProcess.getMessage().contains("a DST inside DST"), inProcess.getMessage());
            assertEquals(before, TreeFiles.everything(above.getParent()), "the refused runs wrote nothing");
            release(first, dst);
        } finally {
            first.destroyForcibly().waitFor();
        }
    }

    @Test
    void bindMountsHideNoNesting() throws Exception {
        Path dst = Files.createDirectories(mount.dir().resolve("real/dst"));
        Path viewOfInside = Files.createDirectory(mount.dir().resolve("view-of-inside"));
        Path viewOfDst = Files.createDirectory(mount.dir().resolve("view-of-dst"));
        Process first = holder(dst);
        Commands.run("mount", "--bind", dst.resolve("d0").toString(), viewOfInside.toString());
        Commands.run("mount", "--bind", dst.toString(), viewOfDst.toString());
        try {
            // DST seen through the bind mount of a directory inside the held one: only its real parents show that.
            Commands.Result inside = emptyingSync(viewOfInside);
            assertEquals(2, inside.exitCode(), inside.stderr());
            assertTrue(inside.stderr().contains("holds DST " + dst + ", and DST " + viewOfInside + " is inside it (pid " + first.pid()),
                    inside.stderr());
            Commands.Result same = emptyingSync(viewOfDst);
            assertEquals(2, same.exitCode(), same.stderr());
            assertTrue(same.stderr().contains("holds DST " + viewOfDst + " (pid " + first.pid()), same.stderr());
            release(first, dst);
        } finally {
            first.destroyForcibly().waitFor();
            Commands.run("umount", viewOfInside.toString());
            Commands.run("umount", viewOfDst.toString());
        }
    }

    @Test
    void aHeldBindMountOfADirectoryLocksItsRealParents() throws Exception {
        Path hidden = Files.createDirectories(mount.dir().resolve("tree/hidden"));
        Path view = Files.createDirectory(mount.dir().resolve("view-of-hidden"));
        Commands.run("mount", "--bind", hidden.toString(), view.toString());
        Process first = null;
        try {
            first = holder(view);
            Commands.Result above = emptyingSync(hidden.getParent());
            assertEquals(2, above.exitCode(), above.stderr());
            assertTrue(above.stderr().contains("holds a DST inside DST " + hidden.getParent() + " (pid " + first.pid()), above.stderr());
            release(first, view);
        } finally {
            if (first != null) first.destroyForcibly().waitFor();
            Commands.run("umount", view.toString());
        }
    }

    /**
     * The lock lasts until the report is out: a run whose copy is done but whose summary cannot be printed yet (its
     * stdout is a full pipe) still holds DST, has written no report of its own, and a nested sync --delete is refused meanwhile.
     */
    @Test
    void theLockIsHeldUntilTheReportIsWritten() throws Exception {
        Path dst = mount.dir().resolve("dst-until-report");
        Path report = mount.dir().resolve("until-report.json");
        Path fifo = mount.dir().resolve("until-report.fifo");
        Commands.run("mkfifo", fifo.toString());
        List<String> java = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), Main.class.getName(), "copy", "--report", report.toString(), src + "/", dst.toString());
        try (RandomAccessFile pipe = new RandomAccessFile(fifo.toFile(), "rw")) {
            pipe.write(new byte[PIPE_CAPACITY]); // full: the run's first line on stdout, its summary, waits
            Process run = new ProcessBuilder(java).redirectOutput(fifo.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            try {
                long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
                while (!Files.isDirectory(dst) || !TreeComparator.differences(src, dst).isEmpty()) {
                    assertTrue(run.isAlive() && System.nanoTime() < deadline, "the copy ends its work");
                    Thread.sleep(50);
                }
                Thread.sleep(300);
                assertTrue(run.isAlive(), "held at its summary");
                assertEquals(String.valueOf(run.pid()), Flocks.exclusiveHolder(dst), "DST is still held");
                // Not its report yet: what the file says until then (the run has not ended).
                assertTrue(new ObjectMapper().readTree(report.toFile()).get("exit_code").isNull(), Files.readString(report));
                Commands.Result nested = emptyingSync(dst.resolve("d0"));
                assertEquals(2, nested.exitCode(), nested.stderr());
                byte[] drain = new byte[PIPE_CAPACITY];
                pipe.readFully(drain);
                assertTrue(run.waitFor(2, TimeUnit.MINUTES));
                assertEquals(0, run.exitValue());
            } finally {
                run.destroyForcibly().waitFor();
            }
        }
        assertEquals(0, new ObjectMapper().readTree(report.toFile()).get("exit_code").asInt(), "its own report, once out");
        assertEquals(null, Flocks.exclusiveHolder(dst), "released once the run ended");
        TreeComparator.assertSameTree(src, dst);
    }

    /** Linux's default pipe buffer. */
    private static final int PIPE_CAPACITY = 65_536;


    /** The loop device under a mount point, to mount the same file system a second time. */
    private static String deviceOf(Path mountPoint) {
        return Commands.run("findmnt", "-n", "-o", "SOURCE", "--mountpoint", mountPoint.toString()).strip();
    }

    /**
     * A second mount of a file system (the same device again, and a bind mount of its root) placed inside a held DST:
     * the file system's root is inside that DST however it is named, and so is every directory of it.
     */
    @Test
    void aFileSystemMountedInsideAHeldDestinationIsInsideItThroughEveryOtherMount() throws Exception {
        LoopMount other = LoopMount.create("dstlock-other", 300);
        Path dst = Files.createDirectories(mount.dir().resolve("dst-holding-a-mount"));
        Path inside = Files.createDirectory(dst.resolve("m"));
        Path bound = Files.createDirectory(mount.dir().resolve("bind-of-other"));
        Path kept = Files.createDirectories(other.dir().resolve("sub/deeper"));
        Files.writeString(kept.resolve("file"), "kept");
        Commands.run("mount", deviceOf(other.dir()), inside.toString()); // the same XFS again: one superblock, one device
        Commands.run("mount", "--bind", other.dir().toString(), bound.toString());
        Process first = null;
        try {
            first = holder(dst);
            List<Path> before = TreeFiles.everything(other.dir());
            for (Path named : List.of(other.dir(), other.dir().resolve("sub"), kept, bound, bound.resolve("sub"))) {
                Commands.Result nested = emptyingSync(named);
                assertEquals(2, nested.exitCode(), named + ": " + nested.stderr());
                assertEquals("spark-dcp: another spark-dcp run holds DST " + dst + ", and DST " + named + " is inside it (pid " + first.pid()
                        + ", host " + hostname() + "); wait for it to end, or stop it", nested.stderr().strip());
            }
            assertEquals(before, TreeFiles.everything(other.dir()), "the refused runs deleted nothing");
            assertEquals("kept", Files.readString(kept.resolve("file")));
            try (OutputStream release = first.getOutputStream()) {
                release.write('\n');
            }
            assertTrue(first.waitFor(2, TimeUnit.MINUTES));
            assertEquals(0, first.exitValue(), "the holder finishes its copy");
        } finally {
            if (first != null) first.destroyForcibly().waitFor();
            Commands.run("umount", bound.toString());
            Commands.run("umount", inside.toString());
            other.close();
        }
    }

    /** The reverse: a held DST that is the root of a file system also mounted inside another directory is inside that one. */
    @Test
    void aHeldFileSystemRootLocksTheDirectoriesWhereItIsMountedAgain() throws Exception {
        LoopMount other = LoopMount.create("dstlock-held", 300);
        Path outer = Files.createDirectories(mount.dir().resolve("outer-of-a-mount"));
        Path inside = Files.createDirectory(outer.resolve("m"));
        Commands.run("mount", deviceOf(other.dir()), inside.toString());
        Process first = null;
        try {
            first = holder(other.dir());
            Commands.Result above = emptyingSync(outer);
            assertEquals(2, above.exitCode(), above.stderr());
            assertEquals("spark-dcp: another spark-dcp run holds a DST inside DST " + outer + " (pid " + first.pid() + ", host "
                    + hostname() + "); wait for it to end, or stop it", above.stderr().strip());
            Commands.Result same = emptyingSync(inside);
            assertEquals(2, same.exitCode(), same.stderr());
            assertTrue(same.stderr().contains("holds DST " + inside + " (pid " + first.pid()), same.stderr());
            release(first, other.dir());
        } finally {
            if (first != null) first.destroyForcibly().waitFor();
            Commands.run("umount", inside.toString());
            other.close();
        }
    }

    @Test
    void runsIntoSiblingDestinationsRunTogether() throws Exception {
        Path parent = Files.createDirectories(mount.dir().resolve("siblings"));
        Path dst = Files.createDirectory(parent.resolve("one"));
        Process first = holder(dst);
        try {
            Commands.Result sibling = command("copy", src + "/", parent.resolve("two").toString());
            assertEquals(0, sibling.exitCode(), sibling.stderr());
            TreeComparator.assertSameTree(src, parent.resolve("two"));
            release(first, dst);
        } finally {
            first.destroyForcibly().waitFor();
        }
    }
}

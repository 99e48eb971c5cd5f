package io.sparkdcp.job;

import io.sparkdcp.copy.steps.Step;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.CopyTreeMain;
import io.sparkdcp.testing.LocalCopy;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.TreeFiles;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A pass over a destination that is already right: under strace, no call fails, no name is created,
 * and an unchanged file costs one open on each side; and the pass changes nothing at DST, directory
 * times included, and counts nothing as made.
 */
class UnchangedPassTest {
    private static final int FILES = 30;
    private static final int DIRECTORIES = 3;
    private static LoopMount mount;
    private static Path source;
    private static Path destination;

    @BeforeAll
    static void copyOnce() throws IOException {
        LoopMount.requireRootAndXfs();
        Commands.requireTool("strace", "strace");
        mount = LoopMount.create("unchanged", 400);
        source = Files.createDirectory(mount.dir().resolve("src"));
        Commands.run("xfs_io", "-c", "chproj 4242", "-c", "chattr +P", source.toString()); // inherited by all made below
        for (int d = 0; d < DIRECTORIES; d++) {
            Path dir = Files.createDirectory(source.resolve("dir-" + d));
            for (int i = 0; i < FILES; i++) Files.writeString(dir.resolve(String.format("plain-%03d.dat", i)), "data " + d + " " + i);
            Commands.run("setfattr", "-n", "user.tag", "-v", "tagged", dir.resolve("plain-003.dat").toString());
        }
        Files.createLink(source.resolve("dir-1/linked.dat"), source.resolve("dir-0/plain-000.dat"));
        Files.createSymbolicLink(source.resolve("dir-2/link"), Path.of("../dir-0/plain-001.dat"));
        destination = Files.createDirectory(mount.dir().resolve("dst"));
        LocalCopy.defaults().run(source, destination);
    }

    @AfterAll
    static void unmount() {
        if (mount != null) mount.close();
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void anUnchangedFileCostsOneOpenEachSideAndNoCallFails(boolean delete) throws Exception {
        List<String> calls = traced(delete);
        List<String> failing = calls.stream().filter(c -> c.contains(mount.dir().toString()) && c.matches(".*= -1 E.*")).toList();
        assertEquals(List.of(), failing, "no call on the trees fails");
        assertTrue(calls.stream().noneMatch(c -> c.startsWith("mkdirat(") || c.startsWith("linkat(") || c.startsWith("symlinkat(")),
                "nothing is created where it is already right");
        Pattern file = Pattern.compile("/dir-1/plain-017\\.dat>|/dir-1>, \"plain-017\\.dat\"");
        List<String> onFile = calls.stream().filter(c -> file.matcher(c).find()).toList();
        // statx by name: the engine's look at DST (and the walk of DST's, with --delete); the walk of SRC names src's directory.
        List<String> engine = onFile.stream().filter(c -> !c.startsWith("statx(")).toList();
        assertEquals(2, engine.stream().filter(c -> c.startsWith("open")).count(), "one open on each side: " + onFile);
        assertTrue(engine.size() <= 8, engine.size() + " calls besides statx: " + onFile);
        assertEquals(delete ? 2 : 1, onFile.stream().filter(c -> c.startsWith("statx(") && c.contains("/dst/")).count(), onFile.toString());
    }

    @Test
    void aPassThatChangesNothingWritesNothingAndCountsNothingMade() {
        String before = statOfEveryEntry();
        CopyReport report = LocalCopy.syncDefaults().sync(source, destination, true);
        assertEquals(before, statOfEveryEntry(), "DST unchanged, directory times and ctimes included");
        assertEquals(0, report.counts().copied(), "nothing copied");
        assertEquals(0, report.counts().metadataFixed(), "nothing fixed");
        assertEquals(0, report.counts().failed());
        for (Step made : List.of(Step.MKDIR, Step.LINK, Step.SYMLINK, Step.MKNOD))
            assertEquals(0, report.steps().count(made), made + " tried on a tree already right");
    }

    /** Every DST entry's inode, links, size, mode, owner, mtime and ctime, to the nanosecond. */
    private static String statOfEveryEntry() {
        return Commands.run("find", destination.toString(), "-printf", "%P %i %n %s %m %U %G %y %T@ %C@\\n");
    }

    /** The calls of a sync of the copied tree, each whole (a file per thread), with descriptors named. */
    private static List<String> traced(boolean delete) throws Exception {
        Path traces = Files.createDirectory(mount.dir().resolve("trace-" + System.nanoTime()));
        List<String> command = new ArrayList<>(List.of("strace", "-ff", "-qq", "-y", "-o", traces.resolve("t").toString(),
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), CopyTreeMain.class.getName(),
                source.toString(), destination.toString(), "fd", "sync"));
        if (delete) command.add("delete");
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertTrue(p.waitFor(3, TimeUnit.MINUTES), "sync under strace timed out");
        assertEquals(0, p.exitValue(), "sync under strace failed");
        List<String> lines = new ArrayList<>();
        for (Path trace : TreeFiles.regularFiles(traces)) lines.addAll(Files.readAllLines(trace));
        return lines;
    }
}

package io.sparkdcp.cli;

import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.LoopMount;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * --log DIR and --report FILE are checked before anything is written, on real XFS: a place that cannot
 * be written (under a regular file, on a read-only mount, a locked report) and a place inside SRC or DST
 * end the run with exit 2 and one line naming the path and the reason; DST is not created, nor changed.
 */
class OutputPlacesTest {
    private static LoopMount mount;
    private static LoopMount readOnly;

    @BeforeAll
    static void mount() {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.create("outputs", LoopMount.MIN_SIZE_MIB);
        readOnly = LoopMount.create("outputs-ro", LoopMount.MIN_SIZE_MIB);
        Commands.run("mount", "-o", "remount,ro", readOnly.dir().toString());
    }

    @AfterAll
    static void unmount() {
        if (readOnly != null) readOnly.close();
        if (mount != null) mount.close();
    }

    @Test
    void aLogUnderARegularFileIsRefusedBeforeDstIsMade() throws IOException {
        Path src = source("under-file");
        Path file = Files.writeString(mount.dir().resolve("under-file/plain"), "a file");
        Path dst = mount.dir().resolve("under-file/dst");
        refused(run("copy", "--log", file.resolve("logs").toString(), src + "/", dst.toString()), "is not a directory");
        assertFalse(Files.exists(dst));
    }

    @Test
    void aLogOnAReadOnlyMountIsRefusedBeforeDstIsMade() throws IOException {
        Path src = source("read-only");
        Path dst = mount.dir().resolve("read-only/dst");
        refused(run("copy", "--log", readOnly.dir().resolve("logs").toString(), src + "/", dst.toString()), "Read-only file system");
        assertFalse(Files.exists(dst));
    }

    @Test
    void aReportThatCannotBeReplacedIsRefusedBeforeDstIsMade() throws IOException {
        Path src = source("report-locked");
        Path report = Files.writeString(mount.dir().resolve("report-locked/report.json"), "{}");
        Commands.run("xfs_io", "-r", "-c", "chattr +i", report.toString());
        Path dst = mount.dir().resolve("report-locked/dst");
        try {
            refused(run("sync", "--report", report.toString(), src + "/", dst.toString()), "immutable or append-only");
            assertFalse(Files.exists(dst));
            refused(run("sync", "--report", readOnly.dir().resolve("report.json").toString(), src + "/", dst.toString()),
                    "Read-only file system");
        } finally {
            Commands.run("xfs_io", "-r", "-c", "chattr -i", report.toString());
        }
    }

    @Test
    void aLogInsideDstIsRefusedAndNothingIsDeleted() throws IOException {
        Path src = source("in-dst");
        Path dst = Files.createDirectories(mount.dir().resolve("in-dst/dst"));
        Files.writeString(dst.resolve("extra"), "DST only");
        List<String> before = tree(dst);
        refused(run("sync", "--delete", "--log", dst.resolve("logs").toString(), src + "/", dst.toString()), "inside the destination");
        refused(run("sync", "--delete", "--report", dst.resolve("report.json").toString(), src + "/", dst.toString()),
                "inside the destination");
        assertEquals(before, tree(dst), "nothing written, nothing deleted");
        // A DST that does not exist yet, and a symlink into DST, are seen through too.
        Path link = Files.createSymbolicLink(mount.dir().resolve("in-dst/link"), dst);
        refused(run("copy", "--log", link.resolve("logs").toString(), src + "/", dst.toString()), "inside the destination");
        Path fresh = mount.dir().resolve("in-dst/fresh");
        refused(run("copy", "--log", fresh.resolve("logs").toString(), src + "/", fresh.toString()), "inside the destination");
        assertFalse(Files.exists(fresh));
    }

    @Test
    void aLogOrReportInsideSrcIsRefused() throws IOException {
        Path src = source("in-src");
        List<String> before = tree(src);
        Path dst = mount.dir().resolve("in-src/dst");
        refused(run("copy", "--log", src.resolve("logs").toString(), src + "/", dst.toString()), "inside the source");
        refused(run("copy", "--report", src.resolve("sub/report.json").toString(), src + "/", dst.toString()), "inside the source");
        assertEquals(before, tree(src));
        assertFalse(Files.exists(dst));
    }

    // ---- helpers ------------------------------------------------------------------------------

    private static Path source(String name) throws IOException {
        Path src = Files.createDirectories(mount.dir().resolve(name + "/src/sub"));
        Files.writeString(src.resolve("a.txt"), "a");
        return src.getParent();
    }

    private static CommandLineRun run(String... args) {
        return CommandLineRun.asLaunched(args);
    }

    /** Exit 2 with one line that names the reason, and no Java exception's name. */
    private static void refused(CommandLineRun run, String reason) {
        assertEquals(2, run.exitCode(), run.out() + run.err());
        List<String> lines = run.err().lines().toList();
        assertEquals(1, lines.size(), run.err());
        assertTrue(lines.get(0).contains(reason), run.err());
        assertFalse(lines.get(0).matches(".*\\b[A-Z]\\w*(Exception|Error)\\b.*"), run.err());
    }

    private static List<String> tree(Path root) throws IOException {
        try (Stream<Path> all = Files.walk(root)) {
            return all.map(p -> root.relativize(p).toString()).sorted().toList();
        }
    }
}

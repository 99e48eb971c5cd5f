package io.sparkdcp.cli;

import io.sparkdcp.itemlog.ItemLine;
import io.sparkdcp.itemlog.ItemLogDir;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.Stat;
import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.ItemLogs;
import io.sparkdcp.testing.LoopMount;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The pre-cutover check on XFS: after {@code setfattr} on one SRC file and {@code chattr -p} on another,
 * {@code sync --dry-run} lists both with what differs, as the real run's item log then words it, and as
 * {@code compare} finds it; the dry run leaves both trees exactly as they were (every stat, ctime included).
 */
class DryRunShowsMetadataTest {
    private static LoopMount mount;

    @BeforeAll
    static void mount() {
        LoopMount.requireRootAndXfs();
        Commands.requireTool("setfattr", "setfattr (Debian's attr)");
        Commands.requireTool("chattr", "chattr (Debian's e2fsprogs)");
        mount = LoopMount.create("dryxattr", LoopMount.MIN_SIZE_MIB);
    }

    @AfterAll
    static void unmount() {
        if (mount != null) mount.close();
    }

    @Test
    void dryRunListsAnXattrAndAProjectIdThatTheRunFixes() throws IOException {
        Path src = Files.createDirectories(mount.dir().resolve("src"));
        Files.createDirectory(src.resolve("sub"));
        Path dst = mount.dir().resolve("dst");
        Files.writeString(src.resolve("a.txt"), "a");
        Files.writeString(src.resolve("sub/b.txt"), "b");
        Files.writeString(src.resolve("c.txt"), "c");
        assertEquals(0, CommandLineRun.of("sync", src + "/", dst.toString()).exitCode());
        Commands.run("setfattr", "-n", "user.note", "-v", "hello", src.resolve("a.txt").toString());
        Commands.run("chattr", "-p", "4242", src.resolve("sub/b.txt").toString());
        Map<String, Stat> srcBefore = stats(src);
        Map<String, Stat> dstBefore = stats(dst);

        String dryLog = mount.dir().resolve("dry-log").toString();
        CommandLineRun dry = CommandLineRun.of("sync", "--delete", "--dry-run", "--log", dryLog, src + "/", dst.toString());
        assertEquals(0, dry.exitCode(), dry.err());
        assertTrue(dry.out().contains("fix metadata: a.txt: xattr\n"), dry.out());
        assertTrue(dry.out().contains("fix metadata: sub/b.txt: project_id\n"), dry.out());
        assertFalse(dry.out().contains("c.txt"), dry.out());
        assertTrue(dry.out().contains("fix metadata of 2,"), dry.out());
        // Judged on the executors, from their walks (local Spark): the same plan.
        CommandLineRun onExecutors = CommandLineRun.of("sync", "--delete", "--dry-run", "--master", "local[2]", "--walk", "distributed",
                src + "/", dst.toString());
        assertEquals(0, onExecutors.exitCode(), onExecutors.err());
        assertEquals(dry.out(), onExecutors.out());
        assertEquals(srcBefore, stats(src), "SRC after the dry run");
        assertEquals(dstBefore, stats(dst), "DST after the dry run: not even a ctime moved");

        String compareLog = mount.dir().resolve("compare-log").toString();
        CommandLineRun compared = CommandLineRun.of("compare", "--log", compareLog, src + "/", dst.toString());
        assertEquals(1, compared.exitCode(), compared.out() + compared.err());
        assertEquals(new TreeSet<>(java.util.List.of("differs xattr a.txt", "differs project_id sub/b.txt")),
                ItemLogs.entries(ItemLogDir.read(compareLog)), "compare finds the same two");

        String runLog = mount.dir().resolve("run-log").toString();
        CommandLineRun run = CommandLineRun.of("sync", "--delete", "--log", runLog, src + "/", dst.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(new TreeSet<>(ItemLogDir.read(runLog).stream().map(ItemLine::format).toList()),
                new TreeSet<>(ItemLogDir.read(dryLog).stream().map(ItemLine::format).toList()), "the dry run's log is the run's");
        assertTrue(ItemLogDir.read(runLog).contains(new ItemLine("fixed", "file", PathBytes.of("a.txt"), java.util.List.of("xattr"))));
        assertEquals(0, CommandLineRun.of("compare", src + "/", dst.toString()).exitCode(), "the run fixed both");
    }

    /** Every entry's lstat under root, by path. */
    static Map<String, Stat> stats(Path root) throws IOException {
        Map<String, Stat> out = new TreeMap<>();
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : all.toList()) out.put(root.relativize(p).toString(), Posix.lstat(PathBytes.of(p.toString())));
        }
        return out;
    }
}

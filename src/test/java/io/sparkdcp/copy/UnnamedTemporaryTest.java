package io.sparkdcp.copy;

import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.FsXattr;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.NativeBuffer;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.testing.LocalCopy;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.TreeComparator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A new file is unnamed until it is complete: a copy stopped dead before its link leaves nothing. The
 * temporary of a file that replaces another carries its marker from the moment it has a name: a copy
 * stopped dead at any point of its making leaves nothing, or a marked temporary that a re-run removes.
 */
class UnnamedTemporaryTest {
    private static final int PROJECT = 4242;
    private static LoopMount mount;
    private static final AtomicInteger cases = new AtomicInteger();

    @BeforeAll
    static void mount() {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.create("tmpmark", LoopMount.MIN_SIZE_MIB);
    }

    @AfterAll
    static void unmount() {
        if (mount != null) mount.close();
    }

    /** A new file stopped after its unnamed open: there is nothing in DST. */
    @Test
    void aNewFileKilledBeforeItsLinkLeavesNothing() throws Exception {
        Case c = new Case(false);
        assertEquals(HaltAfterCreateMain.HALTED, c.copyInChild(1, false));
        assertEquals(List.of(), c.names());
    }

    /**
     * Replacing: stopped after the unnamed open (nothing to see) and after the link (a marked temporary),
     * each after the open of the old file to claim it: the re-run ends exact.
     */
    @Test
    void aCopyKilledWhileMakingItsTemporaryLeavesNothingARerunCannotRemove() throws Exception {
        for (int haltAfter = 2; haltAfter <= 3; haltAfter++) {
            Case c = new Case(true);
            assertEquals(HaltAfterCreateMain.HALTED, c.copyInChild(haltAfter, false), "stopped after open_dst " + haltAfter);
            List<Path> left = c.temporaries();
            for (Path t : left) assertTrue(marked(t), t + " carries the marker");

            CopyReport rerun = LocalCopy.defaults().run(c.src, c.dst);

            assertEquals(List.of(), rerun.counts().failures());
            TreeComparator.assertSameTree(c.src, c.dst); // lists any temporary left behind
            assertEquals(haltAfter == 2 ? 0 : 1, left.size(), "unnamed until marked, then linked: " + left);
        }
    }

    /**
     * Where O_TMPFILE is refused the temporary is created by name and marked next: the copy is exact,
     * and a kill between the two (the case the unnamed way closes) leaves an unmarked temporary.
     */
    @Test
    void whereUnnamedFilesAreRefusedTheTemporaryIsCreatedByNameAndMarked() throws Exception {
        Case whole = new Case(false);
        assertEquals(0, whole.copyInChild(0, true));
        TreeComparator.assertSameEntry(whole.src.resolve("f"), whole.dst.resolve("f"));
        assertEquals(List.of("f"), whole.names());

        Case killed = new Case(true);
        assertEquals(HaltAfterCreateMain.HALTED, killed.copyInChild(2, true));
        List<Path> left = killed.temporaries();
        assertEquals(1, left.size(), "created by name: " + left);
        assertFalse(marked(left.get(0)), "stopped before its marking");
    }

    /**
     * XFS gives an unnamed file the project of a PROJINHERIT directory, as a named create does, so the
     * link into it is allowed; the copy still ends with the source's own project.
     */
    @Test
    void aTemporaryInAProjInheritDirectoryHasTheDirectorysProjectAndTheCopyTheSources() throws Exception {
        Case c = new Case(true);
        setProject(c.dst, PROJECT, true);
        assertEquals(HaltAfterCreateMain.HALTED, c.copyInChild(3, false));
        List<Path> left = c.temporaries();
        assertEquals(1, left.size());
        assertEquals(PROJECT, fsXattr(left.get(0)).projid(), "the directory's project from the start");
        Files.delete(left.get(0));

        setProject(c.src.resolve("f"), 77, false);
        assertEquals(0, c.copyInChild(0, false));
        assertEquals(77, fsXattr(c.dst.resolve("f")).projid());
        assertEquals(List.of("f"), c.names());
    }

    private static boolean marked(Path file) {
        try (Fd fd = Posix.open(PathBytes.of(file.toString()), Linux.O_RDONLY | Linux.O_NOFOLLOW)) {
            return Posix.fgetxattr(fd, TemporaryNames.marker(true), new NativeBuffer(64)) != null;
        }
    }

    private static FsXattr fsXattr(Path p) {
        try (Fd fd = Posix.open(PathBytes.of(p.toString()), Linux.O_RDONLY)) {
            return Posix.getFsXattr(fd);
        }
    }

    private static void setProject(Path p, int projid, boolean inherit) {
        try (Fd fd = Posix.open(PathBytes.of(p.toString()), Linux.O_RDONLY)) {
            Posix.setFsXattr(fd, Posix.getFsXattr(fd).withProject(projid, inherit));
        }
    }

    private static final class Case {
        final Path src;
        final Path dst;

        /** @param oldThere DST has an older f, which the copy replaces */
        Case(boolean oldThere) throws IOException {
            Path dir = Files.createDirectory(mount.dir().resolve("case-" + cases.incrementAndGet()));
            src = Files.createDirectory(dir.resolve("src"));
            dst = Files.createDirectory(dir.resolve("dst"));
            byte[] data = new byte[100_000];
            new Random(11).nextBytes(data);
            Files.write(src.resolve("f"), data);
            Files.setLastModifiedTime(src.resolve("f"), FileTime.from(Instant.parse("2024-03-01T10:00:00.123456789Z")));
            if (oldThere) Files.writeString(dst.resolve("f"), "an older version");
        }

        /** Runs {@link HaltAfterCreateMain}, by name where named; its exit status. */
        int copyInChild(int haltAfter, boolean named) throws Exception {
            List<String> options = named ? List.of("-D" + Temporaries.NAMED_TEMPORARIES_PROPERTY + "=true") : List.of();
            return HaltAfterCreateMain.runInChild(options, src.toString(), dst.toString(), Integer.toString(haltAfter));
        }

        List<String> names() throws IOException {
            try (var names = Files.list(dst)) {
                return names.map(p -> p.getFileName().toString()).sorted().toList();
            }
        }

        List<Path> temporaries() throws IOException {
            return names().stream().filter(n -> TemporaryNames.isTemporary(PathBytes.of(n))).map(dst::resolve).toList();
        }
    }
}

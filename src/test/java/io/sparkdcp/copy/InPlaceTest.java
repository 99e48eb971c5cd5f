package io.sparkdcp.copy;

import io.sparkdcp.api.CopyRequest;
import io.sparkdcp.copy.options.CopyModes;
import io.sparkdcp.copy.steps.Step;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.FsXattr;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.Stat;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.LocalCopy;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.RichTree;
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
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * --inplace: each file is created under its final name and written there. The copy is exact, with no
 * temporary and no rename; a run stopped dead after any step of a file leaves that file at its name
 * differing from SRC's in size or mtime (times are set last), and the next run copies it again.
 */
class InPlaceTest {
    private static final LocalCopy IN_PLACE = LocalCopy.defaults().withModes(CopyModes.of(CopyModes.Mode.INPLACE));
    private static LoopMount mount;
    private static final AtomicInteger cases = new AtomicInteger();

    @BeforeAll
    static void mount() {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.create("inplace", 300);
    }

    @AfterAll
    static void unmount() {
        if (mount != null) mount.close();
    }

    /** Data, holes, modes, owners, times, xattrs, ACLs, project IDs, flags: as the default way copies them, without a rename. */
    @Test
    void anInPlaceCopyIsExactAndRenamesNothing() throws Exception {
        Path dir = newCase();
        RichTree tree = RichTree.build(Files.createDirectory(dir.resolve("src")));
        Path dst = dir.resolve("dst");
        Files.createDirectory(dst); // an existing DST: every name is looked at first

        CopyReport report = IN_PLACE.run(tree.root(), dst);

        assertEquals(List.of(), report.counts().failures());
        TreeComparator.assertSameTree(tree.root(), dst);
        assertEquals(0, report.steps().count(Step.RENAME), "nothing renamed into place");
        assertEquals(report.counts().links(), report.steps().count(Step.LINK), "no file linked into place, only hard links made");
    }

    /** A file that replaces an older one is written under its name too, the older one removed first. */
    @Test
    void anInPlaceCopyReplacesAnOlderFileAtItsName() throws Exception {
        Case c = new Case();
        Files.writeString(c.dst.resolve("f"), "an older version");
        Files.setLastModifiedTime(c.dst.resolve("f"), FileTime.from(Instant.parse("2020-01-01T00:00:00Z")));

        CopyReport report = IN_PLACE.run(c.src, c.dst);

        assertEquals(List.of(), report.counts().failures());
        assertEquals(1, report.counts().copied(FileType.FILE));
        assertEquals(0, report.steps().count(Step.RENAME), "nothing renamed into place");
        TreeComparator.assertSameTree(c.src, c.dst);
    }

    /**
     * Stopped dead right after each step of the file's making, its metadata steps included: what is at the
     * name differs from SRC's in size or mtime, so the next --inplace run copies it again and ends exact.
     * Stopped after its times, it is complete.
     */
    @Test
    void aFileStoppedAfterAnyStepBeforeItsTimesIsCopiedAgainByTheNextRun() throws Exception {
        for (Step haltAfter : List.of(Step.OPEN_DST, Step.OWNER, Step.DATA, Step.XATTR_SET, Step.MODE, Step.IOCTL_SET, Step.TIMES)) {
            Case c = new Case();
            assertEquals(HaltAfterCreateMain.HALTED, HaltAfterCreateMain.runInChild(List.of(), c.src.toString(), c.dst.toString(),
                    "1", haltAfter.name()), "stopped after " + haltAfter);
            Stat source = stat(c.src.resolve("f"));
            Stat left = stat(c.dst.resolve("f")); // under its final name from its create on
            boolean looksDone = left.size() == source.size() && left.sameMtime(source, 0);
            assertEquals(haltAfter == Step.TIMES, looksDone, "stopped after " + haltAfter + ": " + left.size() + " bytes, mtime "
                    + left.mtimeSec() + "." + left.mtimeNsec());

            CopyReport rerun = IN_PLACE.run(c.src, c.dst);

            assertEquals(List.of(), rerun.counts().failures(), "after " + haltAfter);
            assertEquals(haltAfter == Step.TIMES ? 0 : 1, rerun.counts().copied(FileType.FILE), "copied again after " + haltAfter);
            TreeComparator.assertSameTree(c.src, c.dst);
        }
    }

    /** --update would keep a partial file (its mtime is the kill's, later than SRC's) as the user's: the two are refused together. */
    @Test
    void inPlaceWithUpdateIsRefused() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> CopyRequest.builder().inPlace(true).update(true).build());
        assertTrue(refused.getMessage().startsWith("--inplace and --update exclude each other"), refused.getMessage());
    }

    private static Stat stat(Path p) {
        return Posix.lstat(PathBytes.of(p.toString()));
    }

    private static Path newCase() throws IOException {
        return Files.createDirectory(mount.dir().resolve("case-" + cases.incrementAndGet()));
    }

    /** SRC/f with data, an xattr, a setuid mode (an fchmod after the data), another owner and a project of its own. */
    private static final class Case {
        final Path src;
        final Path dst;

        Case() throws Exception {
            Path dir = newCase();
            src = Files.createDirectory(dir.resolve("src"));
            dst = Files.createDirectory(dir.resolve("dst"));
            Path f = src.resolve("f");
            byte[] data = new byte[300_000];
            new Random(3).nextBytes(data);
            Files.write(f, data);
            Commands.run("setfattr", "-n", "user.k", "-v", "v", f.toString());
            Commands.run("chown", "1001:1002", f.toString());
            Commands.run("chmod", "4755", f.toString());
            try (Fd fd = Posix.open(PathBytes.of(f.toString()), Linux.O_RDONLY)) {
                FsXattr own = Posix.getFsXattr(fd);
                Posix.setFsXattr(fd, own.withProject(77, own.projInherit()));
            }
            Files.setLastModifiedTime(f, FileTime.from(Instant.parse("2024-03-01T10:00:00.123456789Z")));
        }
    }
}

package io.sparkdcp.copy;

import io.sparkdcp.posix.FileType;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.LocalCopy;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.TreeComparator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A copy killed while it wrote a file in place leaves the file with its mtime "now", newer than its
 * source: a re-run with --update (the same command retried) must copy it again, not keep it as a file
 * changed at DST.
 */
class IncompleteMarkTest {
    private static LoopMount mount;

    @BeforeAll
    static void mount() {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.create("incomplete", LoopMount.MIN_SIZE_MIB);
    }

    @AfterAll
    static void unmount() {
        if (mount != null) mount.close();
    }

    @Test
    void aFileAKilledRunLeftWithoutItsMetadataIsCopiedAgainByAnUpdateRerun() throws Exception {
        Path src = Files.createDirectory(mount.dir().resolve("src"));
        Path dst = Files.createDirectory(mount.dir().resolve("dst"));
        byte[] data = new byte[(int) IncompleteMark.FROM_BYTES * 3];
        new Random(12).nextBytes(data);
        Path f = Files.write(src.resolve("f"), data);
        Commands.run("setfattr", "-n", "user.kept", "-v", "yes", f.toString());
        Files.setLastModifiedTime(f, FileTime.from(Instant.parse("2024-03-01T10:00:00.123456789Z")));

        assertEquals(HaltAfterCreateMain.HALTED, HaltAfterCreateMain.runInChild(List.of(), src.toString(), dst.toString(), "1", "DATA"));
        assertEquals(data.length, Files.size(dst.resolve("f")), "killed after its data, before its xattrs and times");
        assertTrue(Files.getLastModifiedTime(dst.resolve("f")).compareTo(Files.getLastModifiedTime(f)) > 0, "newer than SRC");

        CopyReport rerun = LocalCopy.defaults().withModes(CopyModes.COPY.withUpdate(true)).run(src, dst);

        assertEquals(0, rerun.counts().keptNewer());
        assertEquals(1, rerun.counts().copied(FileType.FILE));
        assertEquals(List.of(), TreeComparator.differences(src, dst));
    }

    @Test
    void aSmallFileAKilledUpdateRunLeftIsCopiedAgainByItsRetry() throws Exception {
        Path src = Files.createDirectory(mount.dir().resolve("src-small"));
        Path dst = Files.createDirectory(mount.dir().resolve("dst-small"));
        Path f = Files.writeString(src.resolve("f"), "a small file, one write");
        Files.setLastModifiedTime(f, FileTime.from(Instant.parse("2024-03-01T10:00:00Z")));

        assertEquals(HaltAfterCreateMain.HALTED,
                HaltAfterCreateMain.runInChild(List.of(), src.toString(), dst.toString(), "1", "DATA", "update"));
        assertTrue(Files.getLastModifiedTime(dst.resolve("f")).compareTo(Files.getLastModifiedTime(f)) > 0, "newer than SRC");
        // What a half-written file can hold: the data of a write cut short.
        Files.writeString(dst.resolve("f"), "a small");

        CopyReport retry = LocalCopy.defaults().withModes(CopyModes.COPY.withUpdate(true)).run(src, dst);

        assertEquals(0, retry.counts().keptNewer());
        assertEquals(1, retry.counts().copied(FileType.FILE));
        assertEquals(List.of(), TreeComparator.differences(src, dst));
    }
}

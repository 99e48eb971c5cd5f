package io.sparkdcp.job;

import io.sparkdcp.posix.FileType;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.LocalCopy;
import io.sparkdcp.testing.LoopMount;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * XFS (nanosecond times) to ext4 with 128-byte inodes (whole seconds): the copy's times are the
 * source's cut to the second, and a re-run still finds every entry identical.
 */
class CoarseTimestampsTest {
    private static final int FILES = 20;
    private static LoopMount xfs;
    private static LoopMount ext4;
    private static Path src;

    @BeforeAll
    static void mount() throws IOException {
        LoopMount.requireRootAndXfs();
        xfs = LoopMount.create("coarse-src", 300);
        ext4 = LoopMount.createExt4("coarse-dst", 300, "-I", "128");
        src = Files.createDirectory(xfs.dir().resolve("src"));
        Path sub = Files.createDirectory(src.resolve("sub"));
        for (int i = 0; i < FILES; i++) {
            Path f = Files.writeString((i % 2 == 0 ? src : sub).resolve("f" + i), "data " + i);
            Files.setLastModifiedTime(f, FileTime.from(Instant.ofEpochSecond(1_600_000_000L + i, 123_456_789)));
        }
        Files.createSymbolicLink(src.resolve("link"), Path.of("f0"));
        Commands.run("touch", "-h", "-d", "@1600000000.987654321", src.resolve("link").toString());
        Commands.run("mkfifo", src.resolve("fifo").toString());
        Commands.run("touch", "-d", "@1600000000.5", sub.toString(), src.resolve("fifo").toString());
    }

    @AfterAll
    static void unmount() {
        if (ext4 != null) ext4.close();
        if (xfs != null) xfs.close();
    }

    @Test
    void aCopyToWholeSecondTimesIsIdenticalOnTheNextRun() throws IOException {
        Path dst = Files.createDirectory(ext4.dir().resolve("dst-copy"));
        LocalCopy copy = LocalCopy.defaults().withoutProjectIds();
        CopyReport first = copy.run(src, dst);
        assertEquals(List.of(), first.counts().failures());
        assertEquals(FILES, first.counts().copied(FileType.FILE));
        assertEquals(0, Files.getLastModifiedTime(dst.resolve("f0")).toInstant().getNano(), "this ext4 keeps whole seconds");

        CopyReport again = copy.run(src, dst);
        assertEquals(List.of(), again.counts().failures());
        assertEquals(0, again.counts().copied(FileType.FILE), "nothing copied again");
        assertEquals(FILES, again.counts().skipped(FileType.FILE));
        assertEquals(0, again.counts().copied(FileType.SYMLINK) + again.counts().copied(FileType.FIFO));
        assertEquals(0, again.counts().copied(FileType.DIRECTORY));

        // A real change (another second) is still seen.
        Files.setLastModifiedTime(src.resolve("f2"), FileTime.from(Instant.ofEpochSecond(1_700_000_000L)));
        CopyReport changed = copy.run(src, dst);
        assertEquals(1, changed.counts().copied(FileType.FILE));
        Files.setLastModifiedTime(src.resolve("f2"), FileTime.from(Instant.ofEpochSecond(1_600_000_002L, 123_456_789)));
    }

    @Test
    void aSyncToWholeSecondTimesFindsNothingToFixOnTheNextRun() throws IOException {
        Path dst = Files.createDirectory(ext4.dir().resolve("dst-sync"));
        LocalCopy sync = LocalCopy.syncDefaults().withoutProjectIds();
        assertEquals(List.of(), sync.sync(src, dst, false).counts().failures());

        CopyReport again = sync.sync(src, dst, false);
        assertEquals(List.of(), again.counts().failures());
        assertEquals(0, again.counts().copied(FileType.FILE));
        assertEquals(0, again.counts().metadataFixed(FileType.FILE) + again.counts().metadataFixed(FileType.DIRECTORY)
                + again.counts().metadataFixed(FileType.SYMLINK) + again.counts().metadataFixed(FileType.FIFO));
        assertNotEquals(0, again.counts().skipped(FileType.FILE));
    }
}

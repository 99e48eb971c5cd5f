package io.sparkdcp.job;

import io.sparkdcp.copy.options.CopyModes;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.report.ReportText;
import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.LocalCopy;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.TreeComparator;
import io.sparkdcp.testing.TreeFiles;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A destination that fills up: files that do not fit fail with ENOSPC and are not left behind
 * looking complete; every file counted as copied is whole; with room made, a re-run completes
 * the tree exactly and skips what was already there.
 */
class FullDestinationTest {
    private static final int FILES = 40;
    private static final int FILE_SIZE = 1 << 20;
    private static final long ROOM_LEFT = 12L << 20;

    private static LoopMount sourceMount;
    private static LoopMount small;
    private static Path src;

    @BeforeAll
    static void build() throws IOException {
        LoopMount.requireRootAndXfs();
        sourceMount = LoopMount.create("fullsrc", 400);
        small = LoopMount.create("small", 300);
        src = sourceMount.dir().resolve("src");
        Files.createDirectories(src.resolve("sub"));
        Random random = new Random(4);
        for (int i = 0; i < FILES; i++) {
            byte[] data = new byte[FILE_SIZE];
            random.nextBytes(data);
            Files.write(src.resolve((i % 2 == 0 ? "" : "sub/") + "f" + i + ".bin"), data);
        }
        Files.writeString(src.resolve("note.txt"), "small");
    }

    @AfterAll
    static void unmount() {
        if (small != null) small.close();
        if (sourceMount != null) sourceMount.close();
    }

    @Test
    void filesThatDoNotFitFailCleanlyAndARerunWithRoomIsExact() throws IOException {
        Path filler = small.dir().resolve("filler");
        long free = Files.getFileStore(small.dir()).getUsableSpace();
        Commands.run("fallocate", "-l", String.valueOf(free - ROOM_LEFT), filler.toString());
        Path dst = Files.createDirectory(small.dir().resolve("dst"));

        CopyReport full = LocalCopy.defaults().run(src, dst);

        assertEquals(1, full.exitCode());
        assertTrue(full.counts().failed() > 0, "the destination had room for about a third of the files");
        // A directory that did not fit fails with ENOSPC; the files beneath it, tried anyway, with ENOENT.
        List<String> notMade = full.counts().failures().stream().filter(f -> f.errno().equals("ENOSPC")).map(Failure::path).toList();
        for (Failure f : full.counts().failures()) {
            if (f.errno().equals("ENOENT") && notMade.stream().anyMatch(d -> f.path().startsWith(d + "/"))) continue;
            assertEquals("ENOSPC", f.errno(), f.toString());
            assertTrue(f.message().contains("No space left on device"), f.toString());
        }
        assertTrue(ReportText.render(full).contains("because the destination is full (ENOSPC/EDQUOT)"));
        List<Path> present = TreeFiles.regularFiles(dst);
        for (Path copy : present) {
            Path original = src.resolve(dst.relativize(copy).toString());
            assertTrue(Arrays.equals(Files.readAllBytes(original), Files.readAllBytes(copy)), "incomplete file left: " + copy);
        }
        assertEquals(present.size(), full.counts().copied(FileType.FILE), "every file counted as copied is there, whole");

        Files.delete(filler);
        CopyReport rerun = LocalCopy.defaults().run(src, dst);

        assertEquals(List.of(), rerun.counts().failures());
        TreeComparator.assertSameTree(src, dst);
        assertEquals(present.size(), rerun.counts().skipped(FileType.FILE), "complete files were skipped");
        assertEquals(FILES + 1 - present.size(), rerun.counts().copied(FileType.FILE));
    }

    /**
     * A file copied in chunks that did not fit stays at its final size with its mtime "now": newer than
     * its source. A re-run with --update copies it again (it is marked incomplete) and still keeps a file
     * a user changed at DST since.
     */
    @Test
    void aChunkedFileThatDidNotFitIsCopiedAgainByAnUpdateRerun() throws IOException {
        Path chunkedSrc = Files.createDirectories(sourceMount.dir().resolve("chunked"));
        byte[] data = new byte[24 << 20];
        new Random(5).nextBytes(data);
        Files.write(chunkedSrc.resolve("large.bin"), data);
        Files.writeString(chunkedSrc.resolve("edited.txt"), "source");
        Files.setLastModifiedTime(chunkedSrc.resolve("edited.txt"), FileTime.fromMillis(1_000_000_000_000L));
        Path dst = Files.createDirectory(small.dir().resolve("dst-chunked"));
        Files.writeString(dst.resolve("edited.txt"), "changed at DST since, newer than SRC");
        Path filler = small.dir().resolve("filler-chunked");
        long free = Files.getFileStore(small.dir()).getUsableSpace();
        Commands.run("fallocate", "-l", String.valueOf(free - ROOM_LEFT), filler.toString());
        LocalCopy update = LocalCopy.defaults().withChunkSize(1 << 20).withModes(CopyModes.of(CopyModes.Mode.UPDATE));

        CopyReport full = update.run(chunkedSrc, dst);

        assertEquals(1, full.exitCode());
        assertEquals("ENOSPC", full.counts().failures().get(0).errno(), full.counts().failures().toString());
        assertFalse(Files.exists(dst.resolve("large.bin")), "the half-written file never has its final name");

        Files.delete(filler);
        CopyReport rerun = update.run(chunkedSrc, dst);

        assertEquals(List.of(), rerun.counts().failures());
        assertArrayEquals(data, Files.readAllBytes(dst.resolve("large.bin")), "the half-written file was copied again");
        assertEquals("changed at DST since, newer than SRC", Files.readString(dst.resolve("edited.txt")));
        assertEquals(1, rerun.counts().keptNewer(), "the user's newer file is kept");
    }
}

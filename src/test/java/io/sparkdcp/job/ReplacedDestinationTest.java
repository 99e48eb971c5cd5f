package io.sparkdcp.job;

import io.sparkdcp.job.exec.LocalPhaseRunner;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.testing.LocalCopy;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.SwappingPhaseRunner;
import io.sparkdcp.testing.TreeComparator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A chunked file whose temporary's name (where the prepare step created it, until the finish renames it
 * into place) is given to another inode between the prepare step and its chunks or its finish (another
 * run, a user): the copy fails that file and leaves the other inode alone, instead of writing chunks or
 * the source's metadata into it or renaming it into place.
 */
class ReplacedDestinationTest {
    private static final int MIB = 1 << 20;
    private static final LocalCopy CHUNKED = LocalCopy.defaults().withChunkSize(MIB);

    private LoopMount mount;
    private Path src;
    private Path dst;
    private byte[] theirs;

    @BeforeEach
    void makeTree() throws IOException {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.create("replaced", 300);
        src = Files.createDirectory(mount.dir().resolve("src"));
        dst = Files.createDirectory(mount.dir().resolve("dst"));
        byte[] ours = new byte[4 * MIB];
        Arrays.fill(ours, (byte) 1);
        Files.write(src.resolve("large"), ours);
        theirs = new byte[4 * MIB];
        Arrays.fill(theirs, (byte) 2);
    }

    @AfterEach
    void unmount() {
        if (mount != null) mount.close();
    }

    @Test
    void chunksDoNotWriteIntoAFileThatReplacedThePreparedOne() throws IOException {
        copyReplacingBefore("copy chunks");
    }

    @Test
    void theFinishDoesNotGiveTheSourcesMetadataToAFileThatReplacedThePreparedOne() throws IOException {
        copyReplacingBefore("finish large files");
    }

    private void copyReplacingBefore(String phase) throws IOException {
        Path[] target = new Path[1];
        FileTime theirTime = FileTime.fromMillis(1_000_000_000_000L);
        SwappingPhaseRunner otherRun = new SwappingPhaseRunner(new LocalPhaseRunner(2), phase, () -> {
            try {
                // Made beside it and renamed over it, so it is surely another inode.
                Path other = Files.write(dst.resolve("large.other"), theirs);
                Files.setLastModifiedTime(other, theirTime);
                try (var names = Files.list(dst)) {
                    target[0] = names.filter(p -> p.getFileName().toString().startsWith(".spark-dcp.large.")).findFirst().orElseThrow();
                }
                Files.move(other, target[0], java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        CopyReport report = CHUNKED.run(src, dst, otherRun);
        assertTrue(otherRun.swapped());
        List<Failure> failures = report.counts().failures();
        assertEquals(List.of("large"), failures.stream().map(Failure::path).toList());
        assertTrue(failures.get(0).message().contains("destination file was replaced"), failures.toString());
        assertEquals(1, report.exitCode());
        assertArrayEquals(theirs, Files.readAllBytes(target[0]), "the other inode keeps its bytes");
        assertEquals(theirTime, Files.getLastModifiedTime(target[0]), "and its times");
        assertFalse(Files.exists(dst.resolve("large")), "and is not renamed into place");

        CopyReport rerun = CHUNKED.run(src, dst);
        assertEquals(List.of(), rerun.counts().failures());
        assertArrayEquals(theirs, Files.readAllBytes(target[0]), "a re-run leaves the other file alone too");
        List<String> differences = TreeComparator.differences(src, dst);
        assertEquals(1, differences.size(), differences.toString());
        assertTrue(differences.get(0).startsWith(target[0].getFileName() + ": only_in_destination"), differences.toString());
    }
}

package io.sparkdcp.job;

import io.sparkdcp.job.exec.LocalPhaseRunner;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.LocalCopy;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.SwappingPhaseRunner;
import io.sparkdcp.testing.TreeComparator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Files written to while the copy runs: a copy that no longer matches the source is never passed
 * off as complete, whichever way its data went (copy_file_range, read/write, sparse, chunks).
 */
class ChangingSourceTest {
    private static final String CHANGED = "source changed during copy";
    private static final int MIB = 1 << 20;

    private final List<LoopMount> mounts = new ArrayList<>();
    private Path src;
    private Path dst;

    @BeforeEach
    void makeTree() throws IOException {
        LoopMount.requireRootAndXfs();
        LoopMount mount = mount("changing");
        src = Files.createDirectory(mount.dir().resolve("src"));
        dst = Files.createDirectory(mount.dir().resolve("dst"));
        Files.writeString(src.resolve("steady"), "unchanged");
    }

    @AfterEach
    void unmount() {
        mounts.forEach(LoopMount::close);
    }

    private LoopMount mount(String name) {
        LoopMount m = LoopMount.create(name, 300);
        mounts.add(m);
        return m;
    }

    @Test
    void filesThatGrowShrinkOrAreRewrittenAfterTheWalkFailAndAreLeftForTheNextRun() throws IOException {
        Files.write(src.resolve("grows"), new byte[100_000]);
        Files.write(src.resolve("shrinks"), new byte[100_000]);
        Files.write(src.resolve("rewritten"), new byte[100_000]);
        Map<String, Failure> failed = copyChangingBefore("copy files", LocalCopy.defaults(), () -> {
            append(src.resolve("grows"), 3);
            truncate(src.resolve("shrinks"), 50_000);
            overwrite(src.resolve("rewritten"), 4096);
        });
        assertEquals(List.of("grows", "rewritten", "shrinks"), failed.keySet().stream().sorted().toList());
        assertTrue(failed.get("grows").message().contains("100003 bytes"), failed.get("grows").toString());
        assertTrue(failed.get("shrinks").message().contains("50000 bytes"), failed.get("shrinks").toString());
        assertTrue(failed.get("rewritten").message().contains("mtime"), failed.get("rewritten").toString());
        assertFalse(Files.exists(dst.resolve("grows")), "no partial copy left under the final name");
        assertFalse(Files.exists(dst.resolve("rewritten")));
        assertEquals("unchanged", Files.readString(dst.resolve("steady")));
        rerunCopiesExactly(LocalCopy.defaults());
    }

    /** Between file systems the data goes by read/write in 1 MiB blocks: a growth at a block boundary counts too. */
    @Test
    void aFileThatGrowsAtABufferBoundaryIsCaughtOnTheReadWritePath() throws IOException {
        Path other = Files.createDirectory(mount("changing-other").dir().resolve("dst"));
        dst = other;
        Files.write(src.resolve("two-mib"), new byte[2 * MIB]);
        Map<String, Failure> failed = copyChangingBefore("copy files", LocalCopy.defaults(),
                () -> append(src.resolve("two-mib"), 4096));
        assertEquals(List.of("two-mib"), List.copyOf(failed.keySet()));
        assertTrue(failed.get("two-mib").message().contains(CHANGED), failed.toString());
        rerunCopiesExactly(LocalCopy.defaults());
    }

    @Test
    void aSparseFileThatGrowsFails() throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(src.resolve("sparse").toFile(), "rw")) {
            f.write(new byte[]{1, 2, 3});
            f.setLength(8L * MIB);
        }
        Map<String, Failure> failed = copyChangingBefore("copy files", LocalCopy.defaults(),
                () -> append(src.resolve("sparse"), 4096));
        assertEquals(List.of("sparse"), List.copyOf(failed.keySet()));
        assertTrue(failed.get("sparse").message().contains(CHANGED), failed.toString());
        rerunCopiesExactly(LocalCopy.defaults());
    }

    @Test
    void aChunkedFileRewrittenBeforeItsChunksAreCopiedFails() throws IOException {
        chunkedFileChangedBefore("copy chunks");
    }

    @Test
    void aChunkedFileRewrittenAfterItsChunksBeforeTheFinishFails() throws IOException {
        chunkedFileChangedBefore("finish large files");
    }

    private void chunkedFileChangedBefore(String phase) throws IOException {
        LocalCopy chunked = LocalCopy.defaults().withChunkSize(MIB);
        Files.write(src.resolve("large"), new byte[4 * MIB]);
        Map<String, Failure> failed = copyChangingBefore(phase, chunked, () -> overwrite(src.resolve("large"), 3 * MIB));
        assertEquals(List.of("large"), List.copyOf(failed.keySet()));
        assertTrue(failed.get("large").message().contains(CHANGED), failed.toString());
        rerunCopiesExactly(chunked);
    }

    /**
     * A file rewritten in place with its size kept and its mtime put back (as a tool that restores
     * times does) differs from the walk's by its ctime alone. Its copy fails; a chunked one, whose
     * chunks hold the old bytes, never gets the final name with them (the next run would find size and
     * mtime equal and skip it for good).
     */
    @Test
    void aFileRewrittenWithItsSizeAndMtimeRestoredFailsByItsCtime() throws IOException {
        Files.write(src.resolve("small"), new byte[100_000]);
        Map<String, Failure> failed = copyChangingBefore("copy files", LocalCopy.defaults(),
                () -> overwriteKeepingMtime(src.resolve("small"), 4096));
        assertEquals(List.of("small"), List.copyOf(failed.keySet()));
        assertTrue(failed.get("small").message().contains(CHANGED + ": its ctime moved"), failed.toString());
        assertFalse(Files.exists(dst.resolve("small")), "no copy under the final name");
        rerunCopiesExactly(LocalCopy.defaults());
    }

    @Test
    void aChunkedFileRewrittenWithItsSizeAndMtimeRestoredBeforeTheFinishFailsByItsCtime() throws IOException {
        LocalCopy chunked = LocalCopy.defaults().withChunkSize(MIB);
        Files.write(src.resolve("large"), new byte[4 * MIB]);
        Map<String, Failure> failed = copyChangingBefore("finish large files", chunked,
                () -> overwriteKeepingMtime(src.resolve("large"), 3 * MIB));
        assertEquals(List.of("large"), List.copyOf(failed.keySet()));
        assertTrue(failed.get("large").message().contains(CHANGED + ": its ctime moved"), failed.toString());
        assertFalse(Files.exists(dst.resolve("large")), "the old bytes never get the final name");
        rerunCopiesExactly(chunked);
    }

    /** A FIFO or device put where the walk saw a file fails that entry; the copy never waits for a writer. */
    @Test
    void aFifoOrDeviceSwappedInAfterTheWalkFailsThatEntryWithoutHanging() throws IOException {
        Files.writeString(src.resolve("becomes-fifo"), "data");
        Files.writeString(src.resolve("becomes-device"), "data");
        Map<String, Failure> failed = assertTimeoutPreemptively(Duration.ofSeconds(60), () ->
                copyChangingBefore("copy files", LocalCopy.defaults(), () -> Commands.bash("cd '" + src + "'"
                        + " && rm becomes-fifo becomes-device && mkfifo becomes-fifo && mknod becomes-device c 1 3")));
        assertEquals(List.of("becomes-device", "becomes-fifo"), failed.keySet().stream().sorted().toList());
        assertTrue(failed.get("becomes-fifo").message().contains(CHANGED + ": it is now a fifo"), failed.toString());
        assertTrue(failed.get("becomes-device").message().contains(CHANGED + ": it is now a char device"), failed.toString());
        assertFalse(Files.exists(dst.resolve("becomes-fifo")));
        rerunCopiesExactly(LocalCopy.defaults());
    }

    /** Copies with change run just before the named phase; returns the failures by path (exit 1). */
    private Map<String, Failure> copyChangingBefore(String phase, LocalCopy copy, Runnable change) {
        SwappingPhaseRunner runner = new SwappingPhaseRunner(new LocalPhaseRunner(2), phase, change);
        CopyReport report = copy.run(src, dst, runner);
        assertTrue(runner.swapped(), "the change ran");
        assertEquals(1, report.exitCode(), report.counts().failures().toString());
        return report.counts().failures().stream().collect(Collectors.toMap(Failure::path, f -> f));
    }

    private void rerunCopiesExactly(LocalCopy copy) {
        CopyReport rerun = copy.run(src, dst);
        assertEquals(List.of(), rerun.counts().failures());
        TreeComparator.assertSameTree(src, dst);
    }

    private static void append(Path file, int bytes) {
        try {
            Files.write(file, new byte[bytes], StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void truncate(Path file, long size) {
        try (var f = Files.newByteChannel(file, StandardOpenOption.WRITE)) {
            f.truncate(size);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@link #overwrite}, then the mtime put back: only the ctime tells. */
    private static void overwriteKeepingMtime(Path file, long offset) {
        try {
            var mtime = Files.getLastModifiedTime(file);
            overwrite(file, offset);
            Files.setLastModifiedTime(file, mtime);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes a few bytes at offset: same size, new content. */
    private static void overwrite(Path file, long offset) {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(offset);
            f.write(new byte[]{9, 9, 9});
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package io.sparkdcp.job;

import io.sparkdcp.api.CopyRequest;
import io.sparkdcp.api.CopyResult;
import io.sparkdcp.api.SparkDcp;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.StracedMain;
import io.sparkdcp.testing.TreeComparator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A large file copied from one XFS mount to another, where copy_file_range refuses the pair (EXDEV):
 * its chunks' bytes move in the kernel (sendfile), not through a buffer with pread/pwrite, on
 * Spark's local[2] as on threads; its holes stay holes and --bwlimit still holds.
 */
class AcrossMountsDataTest {
    private static final long MIB = 1 << 20;
    /** Data [0, 12M), a hole [12M, 20M), data [20M, 40M): with --chunk-size 16M three chunks, two with a hole. */
    private static final long SIZE = 40 * MIB;

    private static LoopMount from;
    private static LoopMount to;
    private static Path source;

    @BeforeAll
    static void sparseFile() throws IOException {
        LoopMount.requireRootAndXfs();
        Commands.requireTool("strace", "strace");
        from = LoopMount.create("across-from", LoopMount.MIN_SIZE_MIB);
        to = LoopMount.create("across-to", LoopMount.MIN_SIZE_MIB);
        source = Files.createDirectory(from.dir().resolve("src"));
        Random random = new Random(42);
        byte[] data = new byte[(int) (4 * MIB)];
        try (RandomAccessFile file = new RandomAccessFile(source.resolve("big").toFile(), "rw")) {
            for (long at = 0; at < SIZE; at += data.length) {
                if (at >= 12 * MIB && at < 20 * MIB) continue;
                random.nextBytes(data);
                file.seek(at);
                file.write(data);
            }
            file.setLength(SIZE);
        }
        // Blocks XFS may have preallocated there while the first data was written are given back.
        Commands.run("fallocate", "--punch-hole", "--offset", String.valueOf(12 * MIB), "--length", String.valueOf(8 * MIB),
                source.resolve("big").toString());
        assertHoleKept(source.resolve("big"));
    }

    @AfterAll
    static void unmount() {
        if (to != null) to.close();
        if (from != null) from.close();
    }

    @Test
    void aLargeFilesChunksOnSparkMoveInTheKernelAndKeepTheirHole() throws Exception {
        Path dst = to.dir().resolve("spark");
        List<String> calls = StracedMain.calls(to.dir(), "copy", "--master", "local[2]", "--chunk-size", "16M",
                source + "/", dst.toString());
        TreeComparator.assertSameTree(source, dst);
        List<String> onTheFile = calls.stream().filter(c -> c.contains("/src/big>")).toList();
        assertEquals(0, onTheFile.stream().filter(c -> c.startsWith("pread64(") || c.startsWith("pwrite64(")).count(),
                "no chunk's bytes through a buffer");
        long copyFileRange = onTheFile.stream().filter(c -> c.startsWith("copy_file_range(")).count();
        assertTrue(copyFileRange >= 1 && copyFileRange <= 3, "tried once per task, refused across mounts: " + onTheFile);
        // One call per data extent of a chunk: [0, 12M), [20M, 32M), [32M, 40M).
        long sendfile = onTheFile.stream().filter(c -> c.startsWith("sendfile(")).count();
        assertEquals(3, sendfile, onTheFile.toString());
        assertHoleKept(dst.resolve("big"));
    }

    @Test
    void bwlimitHoldsWhereTheBytesMoveInTheKernel() throws IOException {
        long bwlimit = 16 * MIB;
        Path dst = to.dir().resolve("throttled");
        CopyRequest request = CopyRequest.builder().chunkSize("16M").bwlimit(bwlimit).messages(line -> {}).build();
        CopyResult result = SparkDcp.prepare(source + "/", dst.toString(), request).runInProcess();
        assertEquals(0, result.exitCode(), result.toString());
        TreeComparator.assertSameTree(source, dst);
        assertHoleKept(dst.resolve("big"));
        CopyReport report = result.report();
        assertEquals(32 * MIB, report.counts().bytesCopied());
        double implied = (double) report.counts().bytesCopied() / bwlimit;
        // A call takes its slot before it moves its bytes: the last, at most 10 ms of the rate, begins that much early.
        double wall = report.wallNanos() / 1e9;
        assertTrue(wall >= implied - 0.01, String.format("took %.3f s; the rate implies %.3f s", wall, implied));
        assertTrue(report.bytesPerSecond() <= bwlimit, report.bytesPerSecond() + " bytes/s");
    }

    /** The file holds its 32 MiB of data, not its 40 MiB size. */
    private static void assertHoleKept(Path copy) {
        long allocated = 512 * Long.parseLong(Commands.run("stat", "-c", "%b", copy.toString()).strip());
        assertTrue(allocated <= 33 * MIB, "the 8 MiB hole is a hole: " + allocated + " bytes allocated");
    }
}

package io.sparkdcp.api;

import io.sparkdcp.report.CopyReport;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.TreeComparator;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.Random;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --max-ops} and {@code --bwlimit} on XFS, on threads (one task per CPU; four threads per task)
 * and on Spark's local[2], with several tasks at once: the whole job keeps to the rate. A throttled
 * copy takes at least the time its metadata calls or bytes take at that rate, however loaded the
 * machine. No wall-clock upper bound: load alone can break one. That a data or verify step takes no
 * metadata slot is ThrottleTest's, without a clock.
 */
class ThrottledCopyTest {
    private static final long MAX_OPS = 1000;
    private static final long BWLIMIT = 32L << 20;

    private static LoopMount mount;
    private static Path smallFiles;
    private static Path bigFiles;
    private static JavaSparkContext sc;
    private static int runs;

    enum Runner { THREADS, FOUR_THREADS_PER_TASK, SPARK_LOCAL_2 }

    @BeforeAll
    static void trees() throws IOException {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.create("throttle", 400);
        smallFiles = Files.createDirectory(mount.dir().resolve("small"));
        for (int d = 0; d < 5; d++) {
            Path dir = Files.createDirectory(smallFiles.resolve("d" + d));
            for (int f = 0; f < 60; f++) Files.createFile(dir.resolve("f" + f));
        }
        bigFiles = Files.createDirectory(mount.dir().resolve("big"));
        byte[] data = new byte[16 << 20];
        new Random(14).nextBytes(data);
        Files.write(bigFiles.resolve("a"), data);
        Files.write(bigFiles.resolve("b"), data);
        Path chunked = Files.write(bigFiles.resolve("c"), data); // 32 MiB, above --chunk-size: two chunks
        Files.write(chunked, data, StandardOpenOption.APPEND);
        sc = new JavaSparkContext(new SparkConf().setAppName("spark-dcp-throttle-test").setMaster("local[2]")
                .set("spark.ui.enabled", "false").set("spark.speculation", "false"));
    }

    @AfterAll
    static void stop() {
        if (sc != null) sc.stop();
        if (mount != null) mount.close();
    }

    @ParameterizedTest
    @EnumSource(Runner.class)
    void maxOpsHoldsTheJobsMetadataCallsToTheRate(Runner runner) throws IOException {
        CopyReport limited = copy(smallFiles, runner, b -> b.maxOps(MAX_OPS));
        long calls = limited.steps().metadataCalls();
        assertTrue(calls >= 2 * MAX_OPS, "enough calls to take two seconds: " + calls);
        double implied = (double) calls / MAX_OPS;
        // Each call waits for its slot to begin: the last begins (calls - 1) / rate after the first.
        assertTakesAtLeast(limited, implied - 1.0 / MAX_OPS, implied);
        assertTrue(limited.metadataCallsPerSecond() <= MAX_OPS, limited.metadataCallsPerSecond() + " calls/s");
        assertEquals(MAX_OPS, limited.settings().throttle().maxOps());
    }

    @ParameterizedTest
    @EnumSource(Runner.class)
    void bwlimitHoldsTheJobsBytesToTheRate(Runner runner) throws IOException {
        CopyReport limited = copy(bigFiles, runner, b -> b.bwlimit(BWLIMIT));
        assertEquals(64L << 20, limited.counts().bytesCopied());
        double implied = (double) limited.counts().bytesCopied() / BWLIMIT;
        // A call takes its slot before it moves its bytes: the last, at most 10 ms of the rate, begins that much early.
        assertTakesAtLeast(limited, implied - 0.01, implied);
        assertTrue(limited.bytesPerSecond() <= BWLIMIT, limited.bytesPerSecond() + " bytes/s");
        assertEquals(BWLIMIT, limited.settings().throttle().bwlimit());
    }

    private static void assertTakesAtLeast(CopyReport limited, double atLeast, double implied) {
        double wall = limited.wallNanos() / 1e9;
        assertTrue(wall >= atLeast, String.format("took %.3f s; the rate implies %.3f s", wall, implied));
    }

    /** Copies source's contents to a new DST in several tasks (batches of 30 entries or 16 MiB), checks and removes it. */
    private static CopyReport copy(Path source, Runner runner, UnaryOperator<CopyRequest.Builder> limits) throws IOException {
        Path dst = mount.dir().resolve("dst" + ++runs);
        CopyRequest.Builder request = CopyRequest.builder().batchFiles(30).batchBytes("16M").chunkSize("16M").messages(line -> {});
        if (runner == Runner.FOUR_THREADS_PER_TASK) request.threadsPerTask(4);
        CopyRequest built = limits.apply(request).build();
        CopyResult result = runner == Runner.SPARK_LOCAL_2 ? SparkDcp.copy(sc, source + "/", dst.toString(), built)
                : SparkDcp.prepare(source + "/", dst.toString(), built).runInProcess();
        assertEquals(0, result.exitCode(), result.toString());
        TreeComparator.assertSameTree(source, dst);
        try (var paths = Files.walk(dst)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
        }
        return result.report();
    }
}

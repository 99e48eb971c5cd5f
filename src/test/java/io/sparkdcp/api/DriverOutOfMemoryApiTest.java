package io.sparkdcp.api;

import org.apache.logging.log4j.LogManager;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * On a caller's own context, a driver OutOfMemoryError during the copy makes the call throw,
 * and the caller's JVM, context and uncaught-exception handler carry on. The error is one that
 * Netty logs, sent through log4j as Netty would: this JVM does not run out of memory for real
 * (DriverOutOfMemoryTest does, in a driver of its own).
 */
class DriverOutOfMemoryApiTest {
    @TempDir
    Path tmp;

    @Test
    void anOutOfMemoryErrorDuringTheCopyThrowsAndLeavesTheCallersContextAndJvmRunning() throws Exception {
        Path src = Files.createDirectories(tmp.resolve("src/sub"));
        Files.writeString(src.resolve("a.txt"), "alpha\n");
        Thread.UncaughtExceptionHandler handlerBefore = Thread.getDefaultUncaughtExceptionHandler();
        JavaSparkContext sc = new JavaSparkContext(new SparkConf().setAppName("spark-dcp-oom").setMaster("local[2]")
                .set("spark.ui.enabled", "false"));
        try {
            sc.sc().addSparkListener(new SparkListener() {
                @Override
                public void onJobStart(SparkListenerJobStart start) {
                    LogManager.getLogger("org.apache.spark.network.server.TransportChannelHandler").warn("Exception in connection",
                            new OutOfMemoryError("failed to allocate 65536 byte(s) of direct memory (used: 2049024, max: 2097152)"));
                }
            });
            DriverOutOfMemoryException e = assertThrows(DriverOutOfMemoryException.class, () -> SparkDcp.copy(sc,
                    src.getParent() + "/", tmp.resolve("dst").toString(), CopyRequest.builder().messages(line -> {}).build()));

            assertSame(DriverOutOfMemoryException.Memory.DIRECT, e.memory());
            assertTrue(e.getMessage().startsWith("the driver ran out of direct memory"), e.getMessage());
            assertEquals(List.of(1, 2), sc.parallelize(List.of(1, 2)).collect()); // the context still runs jobs
            assertSame(handlerBefore, Thread.getDefaultUncaughtExceptionHandler());
        } finally {
            sc.stop();
        }
    }
}

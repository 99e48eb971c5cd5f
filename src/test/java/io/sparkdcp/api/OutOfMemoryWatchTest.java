package io.sparkdcp.api;

import org.apache.logging.log4j.LogManager;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/** The two ways a driver OutOfMemoryError shows itself, seen in this JVM; nothing runs out of memory for real. */
@Tag("fast")
class OutOfMemoryWatchTest {
    @Test
    void anOutOfMemoryErrorThatKillsAThreadIsSeenAndTheHandlerBeforeStillRuns() throws Exception {
        List<Throwable> before = new CopyOnWriteArrayList<>();
        Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> before.add(e));
        List<OutOfMemoryError> seen = new CopyOnWriteArrayList<>();
        OutOfMemoryError error = new OutOfMemoryError("Java heap space");
        try (OutOfMemoryWatch.Registration watch = OutOfMemoryWatch.watch(seen::add)) {
            Thread dying = new Thread(() -> { throw new InternalError(error); }, "task-result-getter-test");
            dying.start();
            dying.join();
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(previous);
        }
        assertEquals(List.of(error), seen);
        assertEquals(1, before.size());
    }

    @Test
    void anOutOfMemoryErrorThatSparkOrNettyOnlyLogsIsSeen() {
        List<OutOfMemoryError> seen = new CopyOnWriteArrayList<>();
        OutOfMemoryError error = new OutOfMemoryError("failed to allocate 65536 byte(s) of direct memory (used: 2049024, max: 2097152)");
        try (OutOfMemoryWatch.Registration watch = OutOfMemoryWatch.watch(seen::add)) {
            // Below the logger's level too: Netty's warning is what tells, whatever the log level.
            LogManager.getLogger("org.apache.spark.network.server.TransportChannelHandler")
                    .trace("Exception in connection from /127.0.0.1:45121", new RuntimeException("Boxed Exception", error));
        }
        assertEquals(List.of(error), seen);
        assertSame(DriverOutOfMemoryException.Memory.DIRECT, DriverOutOfMemoryException.memoryOf(error));
    }

    @Test
    void closingTheLastWatchPutsTheHandlerBeforeBack() {
        Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        Thread.UncaughtExceptionHandler mine = (t, e) -> {};
        Thread.setDefaultUncaughtExceptionHandler(mine);
        try {
            OutOfMemoryWatch.watch(e -> {}).close();
            assertSame(mine, Thread.getDefaultUncaughtExceptionHandler());
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(previous);
        }
    }

    @Test
    void errorsOtherThanOutOfMemoryAreNotSeen() {
        List<OutOfMemoryError> seen = new CopyOnWriteArrayList<>();
        try (OutOfMemoryWatch.Registration watch = OutOfMemoryWatch.watch(seen::add)) {
            LogManager.getLogger(OutOfMemoryWatchTest.class).trace("a failed fetch", new IllegalStateException("connection reset"));
        }
        assertEquals(List.of(), seen);
        assertSame(DriverOutOfMemoryException.Memory.HEAP, DriverOutOfMemoryException.memoryOf(new OutOfMemoryError("Java heap space")));
    }
}

package io.sparkdcp.api;

import io.sparkdcp.copy.BatchResult;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.job.exec.LocalPhaseRunner;
import io.sparkdcp.job.exec.PhaseRunner;
import io.sparkdcp.job.exec.TaskWork;
import io.sparkdcp.testing.ForwardingPhaseRunner;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A copy on threads in this JVM that runs out of memory throws {@link DriverOutOfMemoryException}, as on
 * Spark, whichever thread the error struck: a task's (it comes back wrapped in the phase's failure) or
 * one of nobody's. The errors are real: an array bigger than any heap.
 */
@Tag("fast")
class InProcessOutOfMemoryTest {
    @TempDir
    Path tmp;

    @Test
    void outOfMemoryOnACopyTasksThreadThrowsDriverOutOfMemory() throws Exception {
        PhaseRunner threads = new LocalPhaseRunner(2);
        PhaseRunner tasksRunOutOfMemory = new ForwardingPhaseRunner() {
            @Override
            public PhaseRunner delegate() { return threads; }

            @Override
            public <T> List<BatchResult> run(String phase, List<T> tasks, CopyOptions options, TaskWork<T> work) {
                return threads.run(phase, tasks, options, (engine, task) -> {
                    throw new AssertionError("allocated " + arrayBiggerThanTheHeap().length);
                });
            }
        };
        assertOutOfMemory(tasksRunOutOfMemory);
    }

    @Test
    void outOfMemoryOnAThreadOfNobodysThrowsDriverOutOfMemoryAndTheHandlerIsGivenBack() throws Exception {
        Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
        PhaseRunner threads = new LocalPhaseRunner(2);
        PhaseRunner anotherThreadRunsOutOfMemory = new ForwardingPhaseRunner() {
            @Override
            public PhaseRunner delegate() { return threads; }

            private boolean died;

            @Override
            public <T> List<BatchResult> run(String phase, List<T> tasks, CopyOptions options, TaskWork<T> work) {
                if (died) return threads.run(phase, tasks, options, work);
                died = true;
                Thread dies = new Thread(() -> System.out.println(arrayBiggerThanTheHeap().length), "dies of it");
                dies.start();
                try {
                    dies.join();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                return threads.run(phase, tasks, options, work);
            }
        };
        assertOutOfMemory(anotherThreadRunsOutOfMemory);
        assertSame(before, Thread.getDefaultUncaughtExceptionHandler());
    }

    private void assertOutOfMemory(PhaseRunner runner) throws Exception {
        Path src = Files.createDirectories(tmp.resolve("src/sub"));
        Files.writeString(src.resolve("a.txt"), "alpha\n");
        PreparedCopy copy = SparkDcp.prepare(tmp.resolve("src") + "/", tmp.resolve("dst").toString(),
                CopyRequest.builder().messages(line -> {}).build());

        DriverOutOfMemoryException e = assertThrows(DriverOutOfMemoryException.class, () -> copy.runOn(runner));

        assertSame(DriverOutOfMemoryException.Memory.HEAP, e.memory());
        assertTrue(e.getMessage().startsWith("the driver ran out of heap memory"), e.getMessage());
        assertInstanceOf(OutOfMemoryError.class, e.getCause());
    }

    private static long[] arrayBiggerThanTheHeap() {
        return new long[Integer.MAX_VALUE - 8];
    }
}

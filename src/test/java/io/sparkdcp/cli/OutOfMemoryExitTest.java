package io.sparkdcp.cli;

import io.sparkdcp.api.DriverOutOfMemoryException;
import io.sparkdcp.api.DriverOutOfMemoryException.Memory;
import io.sparkdcp.testing.TimedProcess;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The exit's line is written, and the JVM ends with exit 3, when the heap is full to the last bytes, as
 * it is when a Spark thread dies of the error while the driver's walk holds the heap. DriverOutOfMemoryTest's
 * heap case ended with exit 3 and no output in about one run in six: the exit told the memory through
 * string constants used for the first time, which the JVM makes on the heap; the first use threw, and
 * the exit halted without its line. In a JVM this small the halt's own first use threw too (exit 0).
 */
class OutOfMemoryExitTest {
    /** The project's classes alone, as the launcher's local runs have them: no log4j to start in a 16 MiB heap. */
    private static final String CLASSES = Path.of("target/classes").toAbsolutePath() + ":" + Path.of("target/test-classes").toAbsolutePath();

    @TempDir
    Path tmp;

    @ParameterizedTest
    @CsvSource({"heap, HEAP", "jdk-direct, DIRECT", "netty-direct, DIRECT"})
    void aThreadThatDiesOfOutOfMemoryWithTheHeapFullEndsTheJvmWithExit3AndTheLine(String error, Memory memory) throws Exception {
        ProcessBuilder child = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx16m", "-XX:+UseSerialGC", "-cp", CLASSES, FullHeapExitMain.class.getName(), error));

        TimedProcess.Finished run = TimedProcess.run(child, tmp.resolve(error + ".log"), 60);

        assertEquals(Main.EXIT_OUT_OF_MEMORY, run.exitCode(), run.output());
        assertEquals("spark-dcp: " + DriverOutOfMemoryException.advice(memory) + System.lineSeparator(), run.output());
    }
}

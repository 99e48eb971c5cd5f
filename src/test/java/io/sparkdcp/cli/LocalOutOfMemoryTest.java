package io.sparkdcp.cli;

import io.sparkdcp.testing.TimedProcess;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A run without --master on the launcher's threads, its heap too small for the tree, ends with exit 3 and
 * the documented line, whichever thread ran out: before, an error on a task's or a walk's thread came back
 * wrapped in the phase's failure and ended "the run stopped: OutOfMemoryError: ..." with exit 1.
 */
class LocalOutOfMemoryTest {
    private static final Path LAUNCHER = Path.of("").toAbsolutePath().resolve("submit-scripts/spark-dcp");
    /** Room for a first build of the jars (the launcher makes them) and the run. */
    private static final long RUN_SECONDS = 300;
    /** Starts a local copy, does not hold this tree's listing (measured: 3-5m end out of memory at 20,000 files). */
    private static final String SMALL_HEAP = "4m";

    @TempDir
    static Path tmp;
    private static Path source;

    @BeforeAll
    static void tree() throws Exception {
        source = Files.createDirectory(tmp.resolve("src"));
        for (int d = 0; d < 100; d++) {
            Path dir = Files.createDirectory(source.resolve("d" + d));
            for (int f = 0; f < 200; f++) Files.createFile(dir.resolve("f" + f));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"copy", "copy --walk distributed", "copy --dry-run", "sync --delete", "compare"})
    void aHeapTooSmallForTheTreeEndsWithExit3AndTheDocumentedLine(String command) throws Exception {
        Path destination = Files.createDirectories(tmp.resolve("dst-" + command.replace(' ', '_')));
        List<String> args = new ArrayList<>(List.of(LAUNCHER.toString()));
        args.addAll(List.of(command.split(" ")));
        args.addAll(List.of(source + "/", destination.toString()));
        ProcessBuilder builder = new ProcessBuilder(args).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        builder.environment().put("SPARK_DCP_DRIVER_MEMORY", SMALL_HEAP);

        TimedProcess.Finished run = TimedProcess.run(builder, tmp.resolve(command.replace(' ', '_') + ".log"), RUN_SECONDS);

        assertEquals(Main.EXIT_OUT_OF_MEMORY, run.exitCode(), run.output());
        assertTrue(run.output().contains("spark-dcp: the driver ran out of heap memory"), run.output());
        assertFalse(run.output().contains("the run stopped"), run.output());
        assertFalse(run.output().contains("\tat "), run.output());
    }
}

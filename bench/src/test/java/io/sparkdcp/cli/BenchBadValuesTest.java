package io.sparkdcp.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The bench's bad option values, as {@link BadValuesTest} checks copy's: exit 2, one line, nothing generated. */
class BenchBadValuesTest {
    @TempDir
    Path tmp;

    @ParameterizedTest(name = "bench {0} {1}")
    @CsvSource(delimiter = '|', value = {
            "--tasks            | 0       | must be from 1 to 1024, not 0",
            "--rounds           | 0       | must be at least 1, not 0",
            "--warmup           | -1      | must be at least 0, not -1",
            "--contenders       | none,tar| unknown contender 'tar'",
            "--threads-per-task | 2000    | must be from 1 to 1024, not 2000",
            "--batch-files      | 0       | must be at least 1, not 0",
            "--master           | ''      | '' is not a Spark master",
            "--max-ops          | 0       | must be at least 1, not 0",
            "--bwlimit          | 1X      | '1X' is not a size",
    })
    void theBenchRefusesBadValuesOfItsOwnAndOfTheSharedEngineOptions(String option, String value, String reason) throws IOException {
        Path scratch = Files.createDirectories(tmp.resolve("scratch"));
        CommandLineRun run = CommandLineRun.asLaunched("bench", option, value, scratch.toString());
        BadValuesTest.assertOneLineUsageError(run, "spark-dcp: Invalid value for option '" + option + "': ", reason);
        try (var left = Files.list(scratch)) {
            assertEquals(List.of(), left.toList(), "nothing generated");
        }
    }

    @Test
    void theSharedEngineOptionsAreInTheBenchsHelp() {
        CommandLineRun run = CommandLineRun.of("bench", "--help");
        assertEquals(0, run.exitCode());
        for (String option : List.of("--xattrs", "--batch-files", "--batch-bytes", "--chunk-size", "--walk-threads", "--threads-per-task",
                "--max-ops", "--bwlimit"))
            assertTrue(run.out().contains(option), option);
    }

    @Test
    void theBenchShowsItsOwnDefaultsAndCopyTheRequestsDefaults() {
        String bench = CommandLineRun.of("bench", "--help").out().replaceAll("\\s+", " ");
        String copy = CommandLineRun.of("copy", "--help").out().replaceAll("\\s+", " ");
        assertTrue(bench.contains("Entries per task at most. Default: 250."), bench);
        assertTrue(copy.contains("Entries per task at most. Default: 2000."), copy);
    }
}

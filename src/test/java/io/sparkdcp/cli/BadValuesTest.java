package io.sparkdcp.cli;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every bad option value is refused while parsing, as launched: exit 2, one line on stderr naming
 * the option and the reason, nothing on stdout, and DST not created.
 */
@Tag("fast")
class BadValuesTest {
    @TempDir
    Path tmp;

    @ParameterizedTest(name = "{0} {1} {2}")
    @CsvSource(delimiter = '|', value = {
            "copy | --walk-threads     | 100000   | must be from 1 to 1024, not 100000",
            "copy | --walk-threads     | 0        | must be from 1 to 1024, not 0",
            "copy | --threads-per-task | 0        | must be from 1 to 1024, not 0",
            "sync | --threads-per-task | 5000     | must be from 1 to 1024, not 5000",
            "copy | --batch-files      | 0        | must be at least 1, not 0",
            "copy | --batch-files      | many     | 'many' is not an int",
            "copy | --batch-bytes      | 0        | must be at least 1, not 0",
            "sync | --batch-bytes      | 99999999T| is too large",
            "copy | --chunk-size       | 4K       | must be at least 1M, not 4096 bytes",
            "copy | --progress         | -1       | must not be negative",
            "copy | --progress         | 100000   | must be at most 86400 seconds",
            "copy | --xattrs           | some     | expected none, all, non-lustre or libattr",
            "sync | --xattr-access     | mmap     | unknown xattr access 'mmap' (expected fd)",
            "copy | --xattr-access     | path     | is the bench's baseline (spark-dcp bench --contenders path), not a way to copy: expected fd",
            "copy | --walk             | nowhere  | must be auto, driver or distributed",
            "sync | --lustre-layout    | striped  | must be inherit, keep or exact, not 'striped'",
            "copy | --listing          | ''       | needs a directory, not an empty name",
            "copy | --master           | ''       | '' is not a Spark master",
            "copy | --master           | garbage  | 'garbage' is not a Spark master",
            "sync | --master           | local[0] | 'local[0]' is not a Spark master",
            "copy | --max-ops          | 0        | must be at least 1, not 0",
            "sync | --max-ops          | -5       | must be at least 1, not -5",
            "copy | --max-ops          | many     | 'many' is not a long",
            "copy | --bwlimit          | 0        | must be at least 1, not 0",
            "sync | --bwlimit          | -1M      | '-1M' is not a size",
            "copy | --bwlimit          | fast     | 'fast' is not a size",
            "copy | --bwlimit          | 99999999T| is too large",
    })
    void aBadValueIsOneLineAndExitTwoAndNoDestination(String command, String option, String value, String reason) throws IOException {
        Path src = Files.createDirectories(tmp.resolve("src"));
        Files.writeString(src.resolve("a"), "a");
        Path dst = tmp.resolve("dst");
        CommandLineRun run = CommandLineRun.asLaunched(command, option, value, src.toString(), dst.toString());
        assertOneLineUsageError(run, "spark-dcp: Invalid value for option '" + option + "': ", reason);
        assertFalse(Files.exists(dst), "DST was created");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"copy", "sync"})
    void optionsThatExcludeEachOtherAreOneLine(String command) throws IOException {
        Path src = Files.createDirectories(tmp.resolve("src"));
        Path dst = tmp.resolve("dst");
        CommandLineRun run = CommandLineRun.asLaunched(command, "--listing", tmp.resolve("l1").toString(),
                "--save-listing", tmp.resolve("l2").toString(), src.toString(), dst.toString());
        assertOneLineUsageError(run, "spark-dcp: ", "--listing and --save-listing exclude each other");
        assertFalse(Files.exists(dst));
    }

    /** A file a killed --inplace run left partial is newer than SRC's: --update would keep it. */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"copy", "sync"})
    void inPlaceWithUpdateIsOneLine(String command) throws IOException {
        Path src = Files.createDirectories(tmp.resolve("src"));
        Path dst = tmp.resolve("dst");
        CommandLineRun run = CommandLineRun.asLaunched(command, "--inplace", "--update", src.toString(), dst.toString());
        assertOneLineUsageError(run, "spark-dcp: ", "--inplace and --update exclude each other");
        assertFalse(Files.exists(dst));
    }

    @ParameterizedTest(name = "compare {0}")
    @CsvSource({"--max-ops, 100", "--bwlimit, 1M"})
    void compareRefusesTheLimitsOfACopy(String option, String value) throws IOException {
        Path src = Files.createDirectories(tmp.resolve("src"));
        Path dst = Files.createDirectories(tmp.resolve("dst"));
        CommandLineRun run = CommandLineRun.asLaunched("compare", option, value, src + "/", dst.toString());
        assertOneLineUsageError(run, "spark-dcp: " + option + " is an option of copy and sync, not of compare", "");
        assertFalse(CommandLineRun.of("compare", "--help").out().contains(option), "compare's help has only its own options");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"copy", "sync"})
    void theSharedEngineOptionsAreInEveryCommandsHelp(String command) {
        CommandLineRun run = CommandLineRun.of(command, "--help");
        assertEquals(0, run.exitCode());
        List<String> missing = new ArrayList<>();
        for (String option : List.of("--xattrs", "--batch-files", "--batch-bytes", "--chunk-size", "--walk-threads", "--threads-per-task",
                "--max-ops", "--bwlimit")) {
            if (!run.out().contains(option)) missing.add(option);
        }
        assertEquals(List.of(), missing);
    }

    @org.junit.jupiter.api.Test
    void copyShowsTheRequestsDefaults() {
        String copy = CommandLineRun.of("copy", "--help").out().replaceAll("\\s+", " ");
        assertTrue(copy.contains("Entries per task at most. Default: 2000."), copy);
        assertTrue(copy.contains("Default: 256M."), copy);
        assertTrue(copy.contains("ACLs included): non-lustre") || copy.contains("Default: non-lustre."), copy);
    }

    static void assertOneLineUsageError(CommandLineRun run, String prefix, String reason) {
        assertEquals(2, run.exitCode(), run.err());
        assertEquals("", run.out());
        List<String> lines = run.err().lines().toList();
        assertEquals(1, lines.size(), run.err());
        assertTrue(lines.get(0).startsWith(prefix) && lines.get(0).contains(reason), lines.get(0));
    }
}

package io.sparkdcp.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What rsync and cp users type and expect to see, run in this JVM on a small tree. */
@Tag("fast")
class RsyncHabitsTest {
    @TempDir
    Path tmp;

    /** A directory, two files (one with a second name), 3,467 bytes of files; made once per test. */
    private Path source() throws IOException {
        Path src = tmp.resolve("src");
        if (Files.exists(src)) return src;
        Files.createDirectories(src.resolve("sub"));
        Files.write(src.resolve("a"), new byte[3_000]);
        Files.write(src.resolve("b"), new byte[467]);
        Files.createLink(src.resolve("a-again"), src.resolve("a"));
        return src;
    }

    private String dst() {
        return tmp.resolve("dst").toString();
    }

    private static CommandLineRun succeeded(String... args) {
        CommandLineRun run = CommandLineRun.asLaunched(args);
        assertEquals(0, run.exitCode(), String.join(" ", args) + "\n" + run.out() + run.err());
        return run;
    }

    @Test
    void dashNIsADryRunThatLeavesDstUntouched() throws IOException {
        CommandLineRun run = succeeded("copy", "-n", source() + "/", dst());
        assertTrue(run.out().contains("dry run: would copy "), run.out());
        assertFalse(Files.exists(Path.of(dst())));
    }

    @Test
    void quietPrintsNothingOnSuccessAndKeepsTheReport() throws IOException {
        Path report = tmp.resolve("report.json");
        CommandLineRun run = succeeded("sync", "-q", "--report", report.toString(), source() + "/", dst());
        assertEquals("", run.out());
        assertEquals("", run.err());
        JsonNode json = new ObjectMapper().readTree(report.toFile());
        assertEquals(0, json.get("exit_code").asInt());
        assertEquals(5, json.get("copied").asLong(), json.toString());
        assertTrue(json.get("steps").size() > 0, "the JSON keeps the steps");
    }

    @Test
    void quietStillPrintsTheEntriesThatFailed() throws IOException {
        Path src = source();
        Files.createDirectories(Path.of(dst(), "b"));
        Files.writeString(Path.of(dst(), "b", "inner"), "a directory where SRC has a file");
        CommandLineRun run = CommandLineRun.asLaunched("copy", "-q", src + "/", dst());
        assertEquals(1, run.exitCode(), run.err());
        assertEquals("", run.out());
        assertEquals(List.of("spark-dcp: failed: b: replace EISDIR: the destination has a directory where the source has a file"),
                run.err().lines().toList());
    }

    @Test
    void quietAndVerboseExcludeEachOther() throws IOException {
        CommandLineRun run = CommandLineRun.asLaunched("copy", "-qv", source() + "/", dst());
        BadValuesTest.assertOneLineUsageError(run, "spark-dcp: ", "--quiet and --verbose exclude each other");
    }

    @Test
    void verboseShowsTheStepTableAndWithoutItThereIsNone() throws IOException {
        Path src = source();
        CommandLineRun plain = succeeded("copy", src + "/", dst());
        assertTrue(plain.out().lines().noneMatch(l -> l.startsWith("step ")), plain.out());
        CommandLineRun verbose = succeeded("copy", "-v", src + "/", tmp.resolve("dst2").toString());
        assertTrue(verbose.out().lines().anyMatch(l -> l.matches("step +count +total ms +µs/call +share")), verbose.out());
        assertTrue(verbose.out().lines().anyMatch(l -> l.startsWith("open_src ")), verbose.out());
    }

    @Test
    void sizesAreInIecUnitsAndTheBwlimitReadsBackAsGiven() throws IOException {
        CommandLineRun run = succeeded("copy", "--bwlimit", "200M", source() + "/", dst());
        assertTrue(run.out().lines().anyMatch(l -> l.equals("bytes copied: 3,467 (3.4 KiB)")), run.out());
        assertTrue(run.out().lines().anyMatch(l -> l.startsWith("limits: ") && l.contains(" data 200.0 MiB/s (achieved ")), run.out());
    }

    @Test
    void dashHIsHumanReadableNotHelp() throws IOException {
        CommandLineRun run = succeeded("copy", "-h", source() + "/", dst());
        assertTrue(run.out().startsWith("spark-dcp copy "), run.out());
        assertTrue(Files.exists(Path.of(dst(), "a")));
        assertTrue(succeeded("copy", "--help").out().contains("-h, --human-readable"));
    }

    /** The listing counts a hard-linked file's bytes once, however many of its names it holds. */
    @Test
    void theListingCountsEachInodesBytesOnce() throws IOException {
        Path report = tmp.resolve("report.json");
        CommandLineRun run = succeeded("copy", "--report", report.toString(), source() + "/", dst());
        assertTrue(run.err().contains("spark-dcp: listed 5 entries (3.4 KiB in files)"), run.err());
        assertEquals(3_467, new ObjectMapper().readTree(report.toFile()).get("bytes_listed").asLong());
    }

    @Test
    void statsEndsWithRsyncsSummary() throws IOException {
        CommandLineRun run = succeeded("copy", "--stats", source() + "/", dst());
        List<String> lines = run.out().lines().toList();
        assertTrue(lines.contains("Number of files: 5"), run.out());
        assertTrue(lines.contains("Number of regular files transferred: 2"), run.out());
        assertTrue(lines.contains("Total file size: 3,467 bytes (3.4 KiB)"), run.out());
        assertTrue(lines.contains("total size is 3,467  speedup is 1.00"), run.out());
        assertTrue(succeeded("copy", source() + "/", tmp.resolve("dst2").toString()).out().lines()
                .noneMatch(l -> l.startsWith("Number of files")), "only with --stats");
    }

    @Test
    void archiveAndRecursiveAreAcceptedAndChangeNothing() throws IOException {
        succeeded("copy", "-arh", source() + "/", dst());
        succeeded("sync", "--archive", "--recursive", source() + "/", dst());
        assertEquals(3_000, Files.size(Path.of(dst(), "a-again")));
    }

    @Test
    void infoProgress2IsAcceptedAndOtherWordsAreNot() throws IOException {
        succeeded("copy", "--info=progress2", source() + "/", dst());
        BadValuesTest.assertOneLineUsageError(CommandLineRun.asLaunched("copy", "--info=stats", source() + "/", tmp.resolve("d2").toString()),
                "spark-dcp: ", "only progress2 is taken");
    }

    @Test
    void progressAloneTakesTheDefaultIntervalAndLeavesSrcASource() throws IOException {
        succeeded("copy", "--progress", source() + "/", dst());
        assertTrue(Files.exists(Path.of(dst(), "sub")));
    }

    @Test
    void aValueJoinedToProgressIsItsOwnAndMustBeANumber() throws IOException {
        BadValuesTest.assertOneLineUsageError(CommandLineRun.asLaunched("copy", "--progress=abc", source() + "/", tmp.resolve("d3").toString()),
                "spark-dcp: ", "'abc' is not a number of seconds");
        succeeded("copy", "--progress=7", source() + "/", dst());
        assertTrue(Files.exists(Path.of(dst(), "sub")));
    }

    @Test
    void aRerunThatFindsEverythingInPlaceSaysNothingWasMade() throws IOException {
        Path src = source();
        succeeded("copy", src + "/", dst());
        CommandLineRun again = succeeded("copy", "-v", src + "/", dst());
        assertTrue(again.out().lines().anyMatch(l -> l.equals("nothing to copy: 5 entries already identical")), again.out());
        assertTrue(again.out().lines().noneMatch(l -> l.startsWith("entries ")), again.out());
    }

    @Test
    void noArgumentsListEveryCommand() {
        CommandLineRun run = CommandLineRun.asLaunched();
        assertEquals(2, run.exitCode());
        assertEquals("spark-dcp: missing command: copy, sync, compare or help; see 'spark-dcp --help'\n", run.err());
        String help = succeeded("--help").out();
        for (String command : Main.subcommands()) assertTrue(help.contains("  " + command + " "), command + " in\n" + help);
    }

    @Test
    void eachCommandsHelpListsOnlyItsOwnOptions() {
        String compare = succeeded("compare", "--help").out();
        assertFalse(compare.contains("--bwlimit") || compare.contains("--max-ops") || compare.contains("--dry-run"), compare);
        assertTrue(compare.contains("--quiet") && compare.contains("--threads-per-task"), compare);
        String copy = succeeded("copy", "--help").out();
        assertTrue(copy.contains("--bwlimit") && copy.contains("--max-ops") && copy.contains("-n, --dry-run"), copy);
        assertFalse(copy.contains("--delete") || copy.contains("--time-window"), copy);
    }

    /** Off a terminal, with --progress 1: a line a second, each a line of its own, in a copy that lasts about 3 s. */
    @Test
    void progressOffATerminalIsALineEachInterval() throws IOException {
        Path src = Files.createDirectories(tmp.resolve("big"));
        byte[] data = new byte[3 << 20];
        new Random(7).nextBytes(data);
        Files.write(src.resolve("f"), data);
        CommandLineRun run = succeeded("copy", "--progress", "1", "--bwlimit", "1M", src + "/", dst());
        List<String> progress = run.err().lines().filter(l -> l.startsWith("spark-dcp: progress: ")).toList();
        assertTrue(progress.size() >= 1, run.err());
        assertTrue(progress.get(0).matches("spark-dcp: progress: [0-2]/2 entries, [^,]*/3\\.0 MiB, .*, ETA .*"),
                progress.get(0));
        assertFalse(run.err().contains("\r"), "no redrawing off a terminal");

        CommandLineRun quiet = succeeded("copy", "-q", "--progress", "1", "--bwlimit", "1M", src + "/", tmp.resolve("dst2").toString());
        assertEquals("", quiet.err(), "-q: no progress");
    }
}

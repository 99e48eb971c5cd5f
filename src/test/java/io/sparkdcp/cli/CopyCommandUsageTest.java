package io.sparkdcp.cli;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Everything that must end with exit code 2 before Spark starts and before anything is written. */
@Tag("fast")
class CopyCommandUsageTest {
    @TempDir
    Path tmp;

    private Path source() throws IOException {
        Path src = Files.createDirectories(tmp.resolve("src"));
        Files.writeString(src.resolve("a"), "a");
        return src;
    }

    private static void assertUsageError(CommandLineRun run, String reasonPart) {
        assertEquals(2, run.exitCode(), run.err());
        assertTrue(run.err().contains(reasonPart), run.err());
        assertEquals("", run.out());
    }

    /** The help's usage line: sources, then one destination (the parameters are one list to picocli). */
    @Test
    void theUsageLineNamesSeveralSourcesAndOneDestination() {
        for (String command : List.of("copy", "sync")) {
            CommandLineRun help = CommandLineRun.asLaunched(command, "--help");
            assertEquals(0, help.exitCode(), help.err());
            List<String> lines = help.out().lines().toList(); // the usage: its first line and those indented under it
            String usage = String.join(" ", lines.subList(0, 1 + (int) lines.stream().skip(1).takeWhile(l -> l.startsWith(" ")).count()))
                    .replaceAll("\\s+", " ");
            assertTrue(usage.startsWith("Usage: spark-dcp " + command + " ") && usage.endsWith(" SRC... DST"), usage);
        }
    }

    @Test
    void missingSourceCreatesNothing() {
        Path dst = tmp.resolve("dst");
        CommandLineRun run = CommandLineRun.of("copy", tmp.resolve("absent").toString(), dst.toString());
        assertUsageError(run, "does not exist");
        assertTrue(run.err().startsWith("spark-dcp: source "), run.err());
        assertFalse(Files.exists(dst));
    }

    @Test
    void aFileWithTheTrailingSlashIsRefusedAsRsyncDoes() throws IOException {
        Path file = Files.writeString(tmp.resolve("file"), "x");
        assertUsageError(CommandLineRun.of("copy", file + "/", tmp.resolve("dst").toString()), "is not a directory");
        assertFalse(Files.exists(tmp.resolve("dst")));
    }

    @Test
    void destinationInsideTheSourceIsRefused() throws IOException {
        Path src = source();
        CommandLineRun run = CommandLineRun.of("copy", src.toString(), src.resolve("inner/dst").toString());
        assertUsageError(run, "inside the source");
        assertFalse(Files.exists(src.resolve("inner")));
    }

    @Test
    void destinationEqualToTheSourceIsRefused() throws IOException {
        Path src = source();
        assertUsageError(CommandLineRun.of("copy", src + "/", src.toString()), "is the source itself");
        assertUsageError(CommandLineRun.of("copy", src + "/", src + "/."), "is the source itself");
    }

    @Test
    void destinationThatLinksToTheSourceIsRefused() throws IOException {
        Path src = source();
        Path link = Files.createSymbolicLink(tmp.resolve("link"), src);
        assertUsageError(CommandLineRun.of("copy", src + "/", link.toString()), "is the source itself");
    }

    @Test
    void destinationThatIsAFileIsLeftUntouched() throws IOException {
        Path src = source();
        Path dst = Files.writeString(tmp.resolve("dst"), "precious");
        assertUsageError(CommandLineRun.of("copy", src.toString(), dst.toString()), "is not a directory");
        assertEquals("precious", Files.readString(dst));
    }

    @Test
    void unknownOptionIsRefused() throws IOException {
        Path dst = tmp.resolve("dst");
        CommandLineRun run = CommandLineRun.of("copy", "--bogus", source().toString(), dst.toString());
        assertEquals(2, run.exitCode());
        assertTrue(run.err().contains("--bogus"), run.err());
        assertFalse(Files.exists(dst));
    }

    @Test
    void unknownXattrPolicyNamesTheKnownOnes() throws IOException {
        Path dst = tmp.resolve("dst");
        CommandLineRun run = CommandLineRun.of("copy", "--xattrs", "some", source().toString(), dst.toString());
        assertUsageError(run, "none, all, non-lustre or libattr");
        assertFalse(Files.exists(dst));
    }

    @Test
    void unknownXattrAccessNamesTheKnownOnes() throws IOException {
        assertUsageError(CommandLineRun.of("copy", "--xattr-access", "mmap", source().toString(), tmp.resolve("dst").toString()),
                "(expected fd)");
    }

    @Test
    void badSizeIsRefused() throws IOException {
        assertUsageError(CommandLineRun.of("copy", "--chunk-size", "1.5G", source().toString(), tmp.resolve("dst").toString()),
                "'1.5G' is not a size");
    }

    @Test
    void zeroBatchFilesIsRefused() throws IOException {
        Path dst = tmp.resolve("dst");
        assertUsageError(CommandLineRun.of("copy", "--batch-files", "0", source().toString(), dst.toString()), "--batch-files");
        assertFalse(Files.exists(dst));
    }

    @Test
    void zeroChunkSizeIsRefused() throws IOException {
        assertUsageError(CommandLineRun.of("copy", "--chunk-size", "0", source().toString(), tmp.resolve("dst").toString()),
                "Invalid value for option '--chunk-size': must be at least 1M, not 0 bytes");
    }

    @Test
    void reportInAMissingDirectoryIsRefusedBeforeCopying() throws IOException {
        Path dst = tmp.resolve("dst");
        CommandLineRun run = CommandLineRun.of("copy", "--report", tmp.resolve("no/such/r.json").toString(),
                source().toString(), dst.toString());
        assertUsageError(run, "does not exist");
        assertFalse(Files.exists(dst));
    }

    @Test
    void missingDestinationOperandIsRefused() throws IOException {
        assertUsageError(CommandLineRun.of("copy", source().toString()), "DST");
    }

    @Test
    void noCommandIsAUsageError() {
        assertUsageError(CommandLineRun.of(), "missing command");
    }

    @Test
    void launchedErrorsAreOneLineWithTheReasonAndAPointerToHelp() throws IOException {
        CommandLineRun run = CommandLineRun.asLaunched("copy", "--xattrs", "some", source().toString(), tmp.resolve("dst").toString());
        assertEquals(2, run.exitCode());
        String[] lines = run.err().split("\n");
        assertEquals(1, lines.length, run.err());
        assertTrue(lines[0].startsWith("spark-dcp: Invalid value for option '--xattrs'"), lines[0]);
        assertTrue(lines[0].endsWith("; see 'spark-dcp copy --help'"), lines[0]);
    }

    @Test
    void negativeProgressIntervalIsRefused() throws IOException {
        assertUsageError(CommandLineRun.of("copy", "--progress", "-1", source().toString(), tmp.resolve("dst").toString()),
                "Invalid value for option '--progress': must not be negative");
        assertFalse(Files.exists(tmp.resolve("dst")));
    }

    @Test
    void helpNamesEveryOption() {
        CommandLineRun run = CommandLineRun.of("copy", "--help");
        assertEquals(0, run.exitCode());
        for (String option : new String[]{"--master", "--xattrs", "--xattr-access", "--no-projid", "--report",
                "--batch-files", "--batch-bytes", "--chunk-size", "--walk-threads", "--progress", "--verbose", "--help", "--version",
                "SRC", "DST"}) {
            assertTrue(run.out().contains(option), option);
        }
    }

    @Test
    void versionNamesTheProgramAndSpark() {
        CommandLineRun run = CommandLineRun.of("--version");
        assertEquals(0, run.exitCode());
        assertTrue(run.out().startsWith("spark-dcp "), run.out());
        assertTrue(run.out().contains("Spark 4."), run.out());
    }
}

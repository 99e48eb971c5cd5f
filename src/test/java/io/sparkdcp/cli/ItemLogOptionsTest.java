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

/** --log and --log-skipped through the CLI (on threads, on the temp file system: the wiring; the engine's side is on XFS). */
@Tag("fast")
class ItemLogOptionsTest {
    @TempDir
    Path tmp;

    private Path source() throws IOException {
        Path src = Files.createDirectories(tmp.resolve("src/sub")).getParent();
        Files.writeString(src.resolve("sub/a.txt"), "a");
        return src;
    }

    /** The committed parts' lines, in part order. */
    private static List<String> lines(Path log) throws IOException {
        try (var parts = Files.list(log)) {
            List<Path> sorted = parts.filter(p -> p.getFileName().toString().startsWith("part-")).sorted().toList();
            List<String> out = new java.util.ArrayList<>();
            for (Path p : sorted) out.addAll(Files.readAllLines(p));
            return out;
        }
    }

    @Test
    void helpListsBothOptionsForCopySyncAndCompare() {
        for (String command : List.of("copy", "sync", "compare")) {
            CommandLineRun help = CommandLineRun.asLaunched(command, "--help");
            assertTrue(help.out().contains("--log=DIR") && help.out().contains("--log-skipped"), command + ": " + help.out());
        }
    }

    @Test
    void aCopyWritesOneTabSeparatedLinePerEntryAndSkippedOnesOnlyWhenAsked() throws IOException {
        Path src = source(), dst = tmp.resolve("dst"), log = tmp.resolve("log");
        CommandLineRun run = CommandLineRun.asLaunched("copy", "--log", log.toString(), src + "/", dst.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(List.of("copied\tdirectory\t.", "copied\tdirectory\tsub", "copied\tfile\tsub/a.txt"),
                lines(log).stream().sorted().toList());
        assertTrue(Files.exists(log.resolve("_SUCCESS")));

        CommandLineRun again = CommandLineRun.asLaunched("copy", "--log=" + log, "--log-skipped", src + "/", dst.toString());
        assertEquals(0, again.exitCode(), again.err());
        assertEquals(List.of("skipped\tdirectory\t.", "skipped\tdirectory\tsub", "skipped\tfile\tsub/a.txt"),
                lines(log).stream().sorted().toList());
    }

    @Test
    void syncDryRunAndCompareLogToo() throws IOException {
        Path src = source(), dst = tmp.resolve("dst"), dry = tmp.resolve("dry"), diff = tmp.resolve("diff");
        assertEquals(0, CommandLineRun.asLaunched("copy", src + "/", dst.toString()).exitCode());
        Files.writeString(dst.resolve("extra"), "x");
        CommandLineRun plan = CommandLineRun.asLaunched("sync", "--delete", "--dry-run", "--log", dry.toString(), src + "/", dst.toString());
        assertEquals(0, plan.exitCode(), plan.err());
        // DST's times are set back after the deletion in it.
        assertEquals(List.of("deleted\tfile\textra", "fixed\tdirectory\t.\tmtime"), lines(dry).stream().sorted().toList());
        assertTrue(Files.exists(dst.resolve("extra")), "a dry run deletes nothing");

        CommandLineRun compare = CommandLineRun.asLaunched("compare", "--log", diff.toString(), src + "/", dst.toString());
        assertEquals(1, compare.exitCode(), compare.err());
        assertTrue(lines(diff).contains("differs\tonly_in_destination\textra\t\tfile, 1 bytes"), lines(diff).toString());
        assertEquals(2, lines(diff).size(), "and DST's mtime, which the new file moved: " + lines(diff));
    }

    @Test
    void usageErrorsComeBeforeAnythingIsWritten() throws IOException {
        Path src = source(), dst = tmp.resolve("dst");
        CommandLineRun alone = CommandLineRun.asLaunched("copy", "--log-skipped", src + "/", dst.toString());
        assertEquals(2, alone.exitCode());
        assertTrue(alone.err().contains("--log-skipped"), alone.err());

        Path userData = Files.createDirectories(tmp.resolve("mine"));
        Files.writeString(userData.resolve("notes.txt"), "keep me");
        CommandLineRun taken = CommandLineRun.asLaunched("sync", "--log", userData.toString(), src + "/", dst.toString());
        assertEquals(2, taken.exitCode());
        assertTrue(taken.err().contains("notes.txt"), taken.err());
        assertEquals("keep me", Files.readString(userData.resolve("notes.txt")));
        assertFalse(Files.exists(dst), "nothing was created");
    }
}

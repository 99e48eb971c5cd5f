package io.sparkdcp.cli;

import io.sparkdcp.testing.TreeFiles;
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

/** sync refuses bad input with exit 2 and one line, as launched, before anything is written. */
@Tag("fast")
class SyncCommandUsageTest {
    @TempDir
    Path tmp;

    private Path source() throws IOException {
        Path src = Files.createDirectories(tmp.resolve("src"));
        Files.writeString(src.resolve("a"), "a");
        return src;
    }

    /** Exit 2, one "spark-dcp: ..." line naming the reason (parse errors add picocli's suggestion and the help pointer to it), no stdout. */
    private static void assertRefused(CommandLineRun run, String reasonPart) {
        assertEquals(2, run.exitCode(), run.err());
        String[] lines = run.err().split("\n");
        assertEquals(1, lines.length, run.err());
        assertTrue(lines[0].startsWith("spark-dcp: ") && lines[0].contains(reasonPart), run.err());
        assertEquals("", run.out());
    }

    @Test
    void missingSourceCreatesNothing() {
        Path dst = tmp.resolve("dst");
        assertRefused(CommandLineRun.asLaunched("sync", "--delete", tmp.resolve("absent").toString(), dst.toString()),
                "does not exist");
        assertFalse(Files.exists(dst));
    }

    @Test
    void destinationInsideTheSourceIsRefused() throws IOException {
        Path src = source();
        List<Path> before = TreeFiles.everything(src);
        assertRefused(CommandLineRun.asLaunched("sync", "--delete", src.toString(), src.resolve("inner/dst").toString()),
                "inside the source");
        assertEquals(before, TreeFiles.everything(src));
    }

    @Test
    void destinationEqualToTheSourceIsRefusedAndNothingIsDeleted() throws IOException {
        Path src = source();
        List<Path> before = TreeFiles.everything(src);
        assertRefused(CommandLineRun.asLaunched("sync", "--delete", src + "/", src + "/."), "is the source itself");
        assertEquals(before, TreeFiles.everything(src));
        assertEquals("a", Files.readString(src.resolve("a")));
    }

    @Test
    void destinationThatIsAFileIsNotOverwritten() throws IOException {
        Path dst = Files.writeString(tmp.resolve("dst"), "precious");
        assertRefused(CommandLineRun.asLaunched("sync", "--delete", source().toString(), dst.toString()), "is not a directory");
        assertEquals("precious", Files.readString(dst));
    }

    @Test
    void unknownOptionIsRefused() throws IOException {
        Path dst = tmp.resolve("dst");
        assertRefused(CommandLineRun.asLaunched("sync", "--delete-everything", source().toString(), dst.toString()),
                "--delete-everything");
        assertFalse(Files.exists(dst));
    }

    @Test
    void helpNamesTheSyncOptionsAndTheSharedOnes() {
        CommandLineRun run = CommandLineRun.of("sync", "--help");
        assertEquals(0, run.exitCode());
        for (String option : new String[]{"--delete", "--contents", "--dry-run", "--atomic", "--verify", "--fsync",
                "--master", "--xattrs", "--report", "SRC", "DST"}) {
            assertTrue(run.out().contains(option), option);
        }
    }
}

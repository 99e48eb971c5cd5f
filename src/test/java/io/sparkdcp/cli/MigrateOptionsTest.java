package io.sparkdcp.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 14 items 1–3 through the CLI (on threads, on the temp file system: the wiring, not the engine):
 * filter rules in command-line order, --exclude-from, --files-from, --delete-excluded, --update,
 * copy --dry-run, and the usage errors (exit 2, one line).
 */
@Tag("fast")
class MigrateOptionsTest {
    @TempDir
    Path tmp;

    private Path source() throws IOException {
        Path src = Files.createDirectories(tmp.resolve("src/sub")).getParent();
        Files.writeString(src.resolve("keep.tmp"), "k");
        Files.writeString(src.resolve("other.tmp"), "o");
        Files.writeString(src.resolve("sub/a.txt"), "a");
        return src;
    }

    @Test
    void rulesApplyInTheOrderGivenWhicheverOptionGivesThem() throws IOException {
        Path src = source();
        Path first = tmp.resolve("includeFirst");
        CommandLineRun a = CommandLineRun.asLaunched("copy", "--include", "keep.tmp", "--exclude", "*.tmp", src + "/", first.toString());
        assertEquals(0, a.exitCode(), a.err());
        assertTrue(Files.exists(first.resolve("keep.tmp")));
        assertFalse(Files.exists(first.resolve("other.tmp")));
        assertTrue(Files.exists(first.resolve("sub/a.txt")));

        Path second = tmp.resolve("excludeFirst");
        CommandLineRun b = CommandLineRun.asLaunched("copy", "--exclude=*.tmp", "--include=keep.tmp", src + "/", second.toString());
        assertEquals(0, b.exitCode(), b.err());
        assertFalse(Files.exists(second.resolve("keep.tmp")));

        Path rules = Files.write(tmp.resolve("rules"), "# comment\n\n+ keep.tmp\n*.tmp\n/sub/\n".getBytes());
        Path third = tmp.resolve("fromFile");
        CommandLineRun c = CommandLineRun.asLaunched("copy", "--exclude-from", rules.toString(), src + "/", third.toString());
        assertEquals(0, c.exitCode(), c.err());
        assertTrue(Files.exists(third.resolve("keep.tmp")));
        assertFalse(Files.exists(third.resolve("other.tmp")));
        assertFalse(Files.exists(third.resolve("sub")));
    }

    @Test
    void filesFromCopiesOnlyTheListedPaths() throws IOException {
        Path src = source();
        Path list = Files.write(tmp.resolve("list"), "sub/a.txt\n".getBytes());
        Path dst = tmp.resolve("dst");
        CommandLineRun run = CommandLineRun.asLaunched("copy", "--files-from", list.toString(), src + "/", dst.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("a", Files.readString(dst.resolve("sub/a.txt")));
        assertFalse(Files.exists(dst.resolve("keep.tmp")));
    }

    @Test
    void deleteExcludedImpliesDeleteAndRemovesWhatTheRulesLeaveOut() throws IOException {
        Path src = source();
        Path dst = tmp.resolve("dst");
        assertEquals(0, CommandLineRun.asLaunched("sync", src + "/", dst.toString()).exitCode());
        Files.writeString(dst.resolve("extra"), "DST's own");
        CommandLineRun keep = CommandLineRun.asLaunched("sync", "--delete", "--exclude", "*.tmp", src + "/", dst.toString());
        assertEquals(0, keep.exitCode(), keep.err());
        assertFalse(Files.exists(dst.resolve("extra")));
        assertTrue(Files.exists(dst.resolve("other.tmp")), "excluded: left alone by --delete");
        CommandLineRun remove = CommandLineRun.asLaunched("sync", "--delete-excluded", "--exclude", "*.tmp", src + "/", dst.toString());
        assertEquals(0, remove.exitCode(), remove.err());
        assertFalse(Files.exists(dst.resolve("other.tmp")));
        assertTrue(Files.exists(dst.resolve("sub/a.txt")));
    }

    @Test
    void updateKeepsANewerDestinationFileAndTheDryRunSaysSo() throws IOException {
        Path src = source();
        Path dst = tmp.resolve("dst");
        assertEquals(0, CommandLineRun.asLaunched("copy", src + "/", dst.toString()).exitCode());
        Files.writeString(dst.resolve("sub/a.txt"), "edited at DST");
        Files.setLastModifiedTime(dst.resolve("sub/a.txt"), FileTime.from(Instant.now().plusSeconds(60)));
        Files.writeString(src.resolve("keep.tmp"), "changed at SRC");
        Files.setLastModifiedTime(src.resolve("keep.tmp"), FileTime.from(Instant.now().plusSeconds(120)));

        CommandLineRun dry = CommandLineRun.asLaunched("copy", "--update", "--dry-run", src + "/", dst.toString());
        assertEquals(0, dry.exitCode(), dry.err());
        assertTrue(dry.out().contains("copy: keep.tmp\n"), dry.out());
        assertFalse(dry.out().contains("copy: sub/a.txt\n"), dry.out());
        assertTrue(dry.out().contains("1 kept, newer at DST"), dry.out());
        assertEquals("k", Files.readString(dst.resolve("keep.tmp")), "a dry run changes nothing");

        Path report = tmp.resolve("report.json");
        CommandLineRun run = CommandLineRun.asLaunched("copy", "--update", "--report", report.toString(), src + "/", dst.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("edited at DST", Files.readString(dst.resolve("sub/a.txt")));
        assertEquals("changed at SRC", Files.readString(dst.resolve("keep.tmp")));
        JsonNode json = new ObjectMapper().readTree(report.toFile());
        assertEquals(1, json.get("kept_newer").asLong(), json.toString());
        assertTrue(json.at("/settings/update").asBoolean(), json.toString());
        assertTrue(run.out().contains("kept, newer at DST (--update): 1 file\n"), run.out());

        CommandLineRun without = CommandLineRun.asLaunched("copy", src + "/", dst.toString());
        assertEquals(0, without.exitCode(), without.err());
        assertEquals("a", Files.readString(dst.resolve("sub/a.txt")), "without --update the source wins");
    }

    @Test
    void copyDryRunIntoAMissingDestinationListsEverythingAndCreatesNothing() throws IOException {
        Path src = source();
        Path dst = tmp.resolve("no/dst");
        CommandLineRun dry = CommandLineRun.asLaunched("copy", "--dry-run", "--mkpath", "--exclude", "other.tmp", src + "/", dst.toString());
        assertEquals(0, dry.exitCode(), dry.err());
        for (String line : new String[]{"copy: .\n", "copy: keep.tmp\n", "copy: sub\n", "copy: sub/a.txt\n"})
            assertTrue(dry.out().contains(line), line + " in\n" + dry.out());
        assertFalse(dry.out().contains("other.tmp"), dry.out());
        assertTrue(dry.out().contains("would copy 4,"), dry.out());
        assertFalse(Files.exists(tmp.resolve("no")));
    }

    @Test
    void badFiltersAreUsageErrorsOfOneLine() throws IOException {
        Path src = source();
        Path dst = tmp.resolve("dst");
        assertRefused(CommandLineRun.asLaunched("copy", "--exclude", "data[0-9", src + "/", dst.toString()),
                "'--exclude'", "'data[0-9' has a '[' class without its ']'");
        assertRefused(CommandLineRun.asLaunched("copy", "--exclude", "-! *.o", src + "/", dst.toString()),
                "'--exclude'", "rule '-! *.o' is rsync's --filter syntax (a rule with modifiers '!')");
        Path merge = Files.write(tmp.resolve("merge-rules"), "+ keep/***\n: .rsync-filter\n".getBytes());
        assertRefused(CommandLineRun.asLaunched("copy", "--include-from", merge.toString(), src + "/", dst.toString()),
                "'--include-from'", "rule ': .rsync-filter' is rsync's --filter syntax (a merge rule)");
        assertRefused(CommandLineRun.asLaunched("copy", "--exclude-from", tmp.resolve("absent").toString(), src + "/", dst.toString()),
                "'--exclude-from'", "cannot read " + tmp.resolve("absent") + ": no such file");
        Path up = Files.write(tmp.resolve("up"), "a/../../etc\n".getBytes());
        assertRefused(CommandLineRun.asLaunched("copy", "--files-from", up.toString(), src + "/", dst.toString()),
                "'--files-from'", "leaves SRC");
        Path saved = Files.createDirectories(tmp.resolve("saved"));
        assertRefused(CommandLineRun.asLaunched("copy", "--listing", saved.toString(), "--exclude", "x", src + "/", dst.toString()),
                "--listing copies a saved listing as it is", "");
        assertFalse(Files.exists(dst));
    }

    @Test
    void helpListsTheNewOptions() {
        CommandLineRun copy = CommandLineRun.asLaunched("copy", "--help");
        for (String option : new String[]{"--exclude", "--include", "--exclude-from", "--include-from", "--files-from", "--update", "--dry-run"})
            assertTrue(copy.out().contains(option), option + " in\n" + copy.out());
        assertTrue(CommandLineRun.asLaunched("sync", "--help").out().contains("--delete-excluded"));
    }

    private static void assertRefused(CommandLineRun run, String part, String otherPart) {
        assertEquals(2, run.exitCode(), run.err());
        String[] lines = run.err().split("\n");
        assertEquals(1, lines.length, run.err());
        assertTrue(lines[0].startsWith("spark-dcp: ") && lines[0].contains(part) && lines[0].contains(otherPart), run.err());
        assertEquals("", run.out());
    }
}

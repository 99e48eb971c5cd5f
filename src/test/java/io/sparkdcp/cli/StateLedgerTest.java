package io.sparkdcp.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.TreeComparator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The state ledger (--state) through the command line, on XFS: what it proves, what it refuses, what the report says. */
class StateLedgerTest {
    private LoopMount mount;
    private Path src, dst, state;

    @BeforeEach
    void tree() throws IOException {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.create("ledger", 300);
        src = Files.createDirectories(mount.dir().resolve("src"));
        dst = mount.dir().resolve("dst");
        state = mount.dir().resolve("state");
        for (int d = 0; d < 3; d++) {
            Path dir = Files.createDirectories(src.resolve("d" + d + "/inner"));
            for (int f = 0; f < 5; f++) Files.writeString(dir.resolve("f" + f), "data " + d + f);
            Files.writeString(src.resolve("d" + d + "/top"), "top " + d);
        }
        Files.createSymbolicLink(src.resolve("link"), Path.of("d0/top"));
        Files.createLink(src.resolve("d1/hard"), src.resolve("d1/top"));
        Commands.run("setfattr", "-n", "user.k", "-v", "v", src.resolve("d2/top").toString());
    }

    @AfterEach
    void unmount() {
        if (mount != null) mount.close();
    }

    private long entries() throws IOException {
        try (Stream<Path> all = Files.walk(src)) {
            return all.count();
        }
    }

    private JsonNode sync(String... more) throws IOException {
        Path report = mount.dir().resolve("report-" + System.nanoTime() + ".json");
        List<String> args = new java.util.ArrayList<>(List.of("sync"));
        args.addAll(List.of(more));
        args.addAll(List.of("--state", state.toString(), src + "/", dst.toString()));
        return CommandLineRun.succeeded(report, args.toArray(String[]::new));
    }

    @Test
    void aSecondSyncProvesEveryEntryUnchangedAndCopiesNothing() throws IOException {
        JsonNode first = sync("--delete");
        assertEquals(0, first.at("/ledger_unchanged").asLong(), first.toString());
        JsonNode second = sync("--delete");
        assertEquals(entries(), second.at("/ledger_unchanged").asLong(), second.toString());
        assertEquals(0, second.at("/copied").asLong(), second.toString());
        assertEquals(0, second.at("/metadata_fixed").asLong(), second.toString());
        TreeComparator.assertSameTree(src, dst);
        try (Stream<Path> generations = Files.list(state)) {
            assertEquals(List.of("state-0000000002"), generations.map(p -> p.getFileName().toString()).filter(n -> !n.equals("LOCK")).toList(), "only the newest stays");
        }
    }

    private JsonNode copy() throws IOException {
        return CommandLineRun.succeeded(mount.dir().resolve("copy-" + System.nanoTime() + ".json"),
                "copy", "--state", state.toString(), src + "/", dst.toString());
    }

    /** A run's stderr, which must say nothing of a ledger not used; and its report. */
    private JsonNode usingTheLedger(String... args) throws IOException {
        Path report = mount.dir().resolve("run-" + System.nanoTime() + ".json");
        List<String> all = new java.util.ArrayList<>(List.of(args[0], "--report", report.toString(), "--state", state.toString()));
        all.addAll(List.of(args).subList(1, args.length));
        all.addAll(List.of(src + "/", dst.toString()));
        CommandLineRun run = CommandLineRun.of(all.toArray(String[]::new));
        assertEquals(0, run.exitCode(), run.out() + run.err());
        assertFalse(run.err().contains("not used"), run.err());
        return new com.fasterxml.jackson.databind.ObjectMapper().readTree(report.toFile());
    }

    @Test
    void aCopyKeepsALedgerThatTheNextCopyUses() throws IOException {
        assertEquals(0, copy().at("/ledger_unchanged").asLong());
        Files.writeString(src.resolve("d1/top"), "changed top, a linked file");
        JsonNode again = copy();
        // The changed inode's two names (d1/top, d1/hard) and the directory they are in.
        assertEquals(entries() - 3, again.at("/ledger_unchanged").asLong(), again.toString());
        TreeComparator.assertSameTree(src, dst);
    }

    @Test
    void aSyncRightAfterACopyUsesTheCopysLedger() throws IOException {
        copy();
        JsonNode sync = usingTheLedger("sync");
        assertEquals(entries(), sync.at("/ledger_unchanged").asLong(), sync.toString());
        assertEquals(0, sync.at("/copied").asLong() + sync.at("/metadata_fixed").asLong(), sync.toString());
        TreeComparator.assertSameTree(src, dst);
    }

    @Test
    void aSyncDeleteAfterACopyUsesItsLedgerAndDeletesWhatSrcLacks() throws IOException {
        copy();
        Files.writeString(dst.resolve("d0/inner/extra"), "only at DST");
        Files.writeString(src.resolve("d2/inner/f3"), "changed at SRC");
        JsonNode sync = usingTheLedger("sync", "--delete");
        // Not proven: the changed file, d2/inner it is in, and d0/inner, which gained a name behind the ledger's back.
        assertEquals(entries() - 3, sync.at("/ledger_unchanged").asLong(), sync.toString());
        assertFalse(Files.exists(dst.resolve("d0/inner/extra")));
        TreeComparator.assertSameTree(src, dst);
        assertEquals(entries(), usingTheLedger("sync", "--delete").at("/ledger_unchanged").asLong());
    }

    /**
     * A copy keeps a file whose stats match without looking at its xattrs: over a DST that was there before it, such a
     * file is compared in full before it is recorded, so the sync after it still fixes what the copy left.
     */
    @Test
    void aFileACopyKeptByItsStatsIsRecordedOnlyOnceComparedInFull() throws IOException {
        assertEquals(0, CommandLineRun.of("sync", src + "/", dst.toString()).exitCode());
        Commands.run("setfattr", "-n", "user.k", "-v", "other", dst.resolve("d2/top").toString());
        Commands.run("setfattr", "-n", "user.only", "-v", "at DST", dst.resolve("d0/inner").toString());
        copy();
        assertEquals("other", Commands.run("getfattr", "--only-values", "-n", "user.k", dst.resolve("d2/top").toString()).strip(), "a copy keeps it");
        JsonNode sync = usingTheLedger("sync");
        // The two it could not prove, and the directory of the first.
        assertEquals(entries() - 3, sync.at("/ledger_unchanged").asLong(), sync.toString());
        TreeComparator.assertSameTree(src, dst);
    }

    /** A file whose size and mtime are as recorded while its ctime moved has its bytes compared, by a copy too. */
    @Test
    void aCopyComparesTheBytesOfAFileRewrittenWithItsMtimePutBack() throws IOException {
        sync();
        Path file = src.resolve("d0/inner/f2");
        java.nio.file.attribute.FileTime mtime = Files.getLastModifiedTime(file);
        Files.writeString(file, "DATA 02");
        Files.setLastModifiedTime(file, mtime);
        JsonNode copy = copy();
        assertEquals(entries() - 2, copy.at("/ledger_unchanged").asLong(), copy.toString());
        assertEquals("DATA 02", Files.readString(dst.resolve("d0/inner/f2")));
        TreeComparator.assertSameTree(src, dst);
    }

    @Test
    void otherFiltersNarrowWhatTheLedgerProvesAndDeleteNothingTheyLeaveOut() throws IOException {
        sync("--delete");
        Files.writeString(src.resolve("d0/inner/f1"), "changed at SRC, left out next");
        Path report = mount.dir().resolve("filtered.json");
        CommandLineRun narrowed = CommandLineRun.of("sync", "--delete", "--report", report.toString(), "--exclude", "inner/",
                "--state", state.toString(), src + "/", dst.toString());
        assertEquals(0, narrowed.exitCode(), narrowed.err());
        assertTrue(narrowed.err().contains("was made with other filters"), narrowed.err());
        assertFalse(narrowed.err().contains("not used"), narrowed.err());
        // What the filters list: the root, three directories and their tops, the symlink and d1/hard; the two names of
        // d1's linked file are proven by no record under other filters, and so neither is d1.
        long listed = 1 + 3 + 3 + 1 + 1;
        assertEquals(listed - 3, new com.fasterxml.jackson.databind.ObjectMapper().readTree(report.toFile()).at("/ledger_unchanged").asLong());
        assertEquals("data 01", Files.readString(dst.resolve("d0/inner/f1")), "left out: neither copied nor deleted");
        assertTrue(Files.exists(dst.resolve("d2/inner/f4")));
        // Without filters again: the narrowed run carried the records of what it left out, which prove all but
        // d0/inner/f1 (changed at SRC) and its directory, and again not d1's linked file, nor d1.
        JsonNode widened = usingTheLedger("sync", "--delete");
        assertEquals(entries() - 5, widened.at("/ledger_unchanged").asLong(), widened.toString());
        assertEquals("changed at SRC, left out next", Files.readString(dst.resolve("d0/inner/f1")));
        TreeComparator.assertSameTree(src, dst);
        assertEquals(entries(), sync("--delete").at("/ledger_unchanged").asLong(), widened.toString());
    }

    /**
     * A name of a linked inode that the ledger's filters left out is linked when other filters list it: no record
     * proves a file of several links then, since proving the name the ledger knows would copy the other apart.
     */
    @Test
    void aLinkedNameTheLedgersFiltersLeftOutIsLinkedWhenListed() throws IOException {
        sync("--exclude", "hard");
        assertFalse(Files.exists(dst.resolve("d1/hard")));
        JsonNode all = usingTheLedger("sync");
        assertTrue(all.at("/ledger_unchanged").asLong() > 0, all.toString());
        assertEquals(Files.getAttribute(dst.resolve("d1/top"), "unix:ino"), Files.getAttribute(dst.resolve("d1/hard"), "unix:ino"));
        TreeComparator.assertSameTree(src, dst);
    }

    @Test
    void aChangeOnEitherSideIsSeenAndOnlyThatEntryIsLookedAtAgain() throws IOException {
        sync();
        Files.writeString(src.resolve("d0/inner/f1"), "changed at SRC");
        Commands.run("chmod", "600", dst.resolve("d1/inner/f2").toString());
        JsonNode second = sync();
        // Two files, and the directory each is in: a directory with a file left to look at is finished as today.
        assertEquals(entries() - 2 - 2, second.at("/ledger_unchanged").asLong(), second.toString());
        TreeComparator.assertSameTree(src, dst);
        assertEquals(entries(), sync().at("/ledger_unchanged").asLong());
    }

    @Test
    void aLedgerOfOtherKeptKindsContentsOrRootsIsIgnoredWithOneNotice() throws IOException {
        sync();
        for (String option : List.of("--contents", "--no-projid", "--no-flags", "--xattrs=all")) {
            Path report = mount.dir().resolve("report" + option + ".json");
            CommandLineRun other = CommandLineRun.of("sync", "--report", report.toString(), option, "--state", state.toString(), src + "/", dst.toString());
            assertEquals(0, other.exitCode(), other.err());
            assertEquals(1, other.err().lines().filter(l -> l.contains("was made with other roots, other kept kinds or --contents, or by another user")
                    && l.endsWith(": not used; this run writes a new one")).count(), option + ": " + other.err());
            assertEquals(0, new com.fasterxml.jackson.databind.ObjectMapper().readTree(report.toFile()).at("/ledger_unchanged").asLong());
            // It wrote its own, which the same options use next.
            assertEquals(entries(), sync(option).at("/ledger_unchanged").asLong(), option);
        }
        Path elsewhere = mount.dir().resolve("dst2");
        CommandLineRun otherRoot = CommandLineRun.of("sync", "--xattrs=all", "--state", state.toString(), src + "/", elsewhere.toString());
        assertEquals(0, otherRoot.exitCode(), otherRoot.err());
        assertTrue(otherRoot.err().contains("was made with other roots"), otherRoot.err());
        TreeComparator.assertSameTree(src, elsewhere);
    }

    @Test
    void aLedgerInsideATreeIsRefusedBeforeAnythingIsWritten() {
        CommandLineRun inside = CommandLineRun.of("sync", "--state", src.resolve("d0/state").toString(), src + "/", dst.toString());
        assertEquals(2, inside.exitCode(), inside.err());
        assertTrue(inside.err().contains("--state"), inside.err());
        assertFalse(Files.exists(dst));
        CommandLineRun saved = CommandLineRun.of("sync", "--listing", mount.dir().resolve("listing").toString(),
                "--state", state.toString(), src + "/", dst.toString());
        assertEquals(2, saved.exitCode(), saved.err());
        assertTrue(saved.err().contains("--state"), saved.err());
    }

    @Test
    void aRunKilledWhileItWritesTheLedgerLeavesTheOldOneInForce() throws Exception {
        sync();
        Files.writeString(src.resolve("d0/inner/f1"), "changed at SRC, longer");
        Path paused = mount.dir().resolve("paused");
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "-Dsparkdcp.test.state.pauseBeforeSwap=" + paused,
                Main.class.getName(), "sync", "--state", state.toString(), src + "/", dst.toString())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MINUTES.toNanos(2);
            while (!Files.exists(paused) && child.isAlive() && System.nanoTime() < deadline) Thread.sleep(50);
            assertTrue(Files.exists(paused), "the run never reached the ledger's swap");
            try (Stream<Path> parts = Files.list(state.resolve(".writing-0000000002"))) {
                assertTrue(parts.anyMatch(p -> p.getFileName().toString().startsWith("part-")), "the new generation's parts are written");
            }
        } finally {
            child.destroyForcibly(); // SIGKILL: no hook runs
            child.waitFor();
        }
        // The killed run copied f1 but never put its ledger in force: the next run meets the first run's records,
        // which prove all but f1 and its directory.
        JsonNode next = sync();
        assertEquals(entries() - 2, next.at("/ledger_unchanged").asLong(), next.toString());
        TreeComparator.assertSameTree(src, dst);
        try (Stream<Path> generations = Files.list(state)) {
            assertEquals(List.of("state-0000000003"), generations.map(p -> p.getFileName().toString()).filter(n -> !n.equals("LOCK")).toList(), "the killed run's is dropped");
        }
        assertEquals(entries(), sync().at("/ledger_unchanged").asLong());
    }

    @Test
    void aDryRunDecidesByTheLedgerAsTheRunDoesAndWritesNone() throws IOException {
        sync();
        Files.writeString(src.resolve("d2/inner/f4"), "changed");
        Commands.run("chmod", "600", dst.resolve("d1/inner/f2").toString());
        // As a restore tool that rewrote ctime would: the ledger's record now matches the changed DST entry.
        forgeDestinationRecord("d1/inner", "f2");
        CommandLineRun dry = CommandLineRun.of("sync", "--dry-run", "--state", state.toString(), src + "/", dst.toString());
        assertEquals(0, dry.exitCode(), dry.err());
        assertTrue(dry.out().contains("copy: d2/inner/f4\n"), dry.out());
        assertFalse(dry.out().contains("d1/inner/f2"), "the ledger's record is trusted: " + dry.out());
        CommandLineRun without = CommandLineRun.of("sync", "--dry-run", src + "/", dst.toString());
        assertTrue(without.out().contains("fix metadata: d1/inner/f2: mode\n"), without.out());
        try (Stream<Path> generations = Files.list(state)) {
            assertEquals(List.of("state-0000000001"), generations.map(p -> p.getFileName().toString()).filter(n -> !n.equals("LOCK")).toList(), "no ledger written");
        }
        assertEquals("data 24", Files.readString(dst.resolve("d2/inner/f4")));
    }

    private void forgeDestinationRecord(String directory, String name) throws IOException {
        io.sparkdcp.posix.Stat now = io.sparkdcp.posix.Posix.lstat(io.sparkdcp.posix.PathBytes.of(dst.resolve(directory).resolve(name).toString()));
        io.sparkdcp.job.ledger.Ledgers.rewrite(state, blocks -> blocks.stream().map(b -> !new String(b.path()).equals(directory) ? b
                : new io.sparkdcp.job.ledger.LedgerBlock(b.path(), b.entries().stream().map(e -> !new String(e.name()).equals(name) ? e
                : new io.sparkdcp.job.ledger.LedgerBlock.Entry(e.name(), e.type(), e.source(), io.sparkdcp.job.ledger.LedgerBlock.Seen.of(now))).toList())).toList());
    }
}

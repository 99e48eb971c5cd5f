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

    @Test
    void aCopyKeepsALedgerOfItsOwn() throws IOException {
        String[] copy = {"copy", "--state", state.toString(), src + "/", dst.toString()};
        assertEquals(0, CommandLineRun.succeeded(mount.dir().resolve("c1.json"), copy).at("/ledger_unchanged").asLong());
        Files.writeString(src.resolve("d1/top"), "changed top, a linked file");
        JsonNode again = CommandLineRun.succeeded(mount.dir().resolve("c2.json"), copy);
        // The changed inode's two names (d1/top, d1/hard) and the directory they are in.
        assertEquals(entries() - 3, again.at("/ledger_unchanged").asLong(), again.toString());
        TreeComparator.assertSameTree(src, dst);
        CommandLineRun sync = CommandLineRun.of("sync", "--state", state.toString(), src + "/", dst.toString());
        assertTrue(sync.err().contains("was made with other roots or options"), "a copy's ledger is not a sync's: " + sync.err());
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
    void aLedgerOfOtherOptionsOrRootsIsIgnoredWithOneNotice() throws IOException {
        sync();
        Path report = mount.dir().resolve("report.json");
        CommandLineRun other = CommandLineRun.of("sync", "--report", report.toString(), "--exclude", "nothing-matches",
                "--state", state.toString(), src + "/", dst.toString());
        assertEquals(0, other.exitCode(), other.err());
        assertEquals(1, other.err().lines().filter(l -> l.contains("was made with other roots or options")).count(), other.err());
        assertEquals(0, new com.fasterxml.jackson.databind.ObjectMapper().readTree(report.toFile()).at("/ledger_unchanged").asLong());
        // It wrote its own, which the same options use next.
        assertEquals(entries(), sync("--exclude", "nothing-matches").at("/ledger_unchanged").asLong());
        Path elsewhere = mount.dir().resolve("dst2");
        CommandLineRun otherRoot = CommandLineRun.of("sync", "--exclude", "nothing-matches", "--state", state.toString(), src + "/", elsewhere.toString());
        assertEquals(0, otherRoot.exitCode(), otherRoot.err());
        assertTrue(otherRoot.err().contains("was made with other roots or options"), otherRoot.err());
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

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
            assertEquals(List.of("state-0000000002"), generations.map(p -> p.getFileName().toString()).toList(), "only the newest stays");
        }
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
    void aDryRunUsesTheLedgerAndWritesNone() throws IOException {
        sync();
        Files.writeString(src.resolve("d2/inner/f4"), "changed");
        CommandLineRun dry = CommandLineRun.of("sync", "--dry-run", "--state", state.toString(), src + "/", dst.toString());
        assertEquals(0, dry.exitCode(), dry.err());
        assertTrue(dry.out().contains("copy: d2/inner/f4\n"), dry.out());
        try (Stream<Path> generations = Files.list(state)) {
            assertEquals(List.of("state-0000000001"), generations.map(p -> p.getFileName().toString()).toList());
        }
        assertFalse(Files.readString(dst.resolve("d2/inner/f4")).equals("changed"));
    }
}

package io.sparkdcp.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.sparkdcp.itemlog.ItemLine;
import io.sparkdcp.itemlog.ItemLogDir;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.OtherSchemeFileSystem;
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

/**
 * A state ledger, an item log and a saved listing in a place of another scheme than file: go through Hadoop's
 * FileSystem, as on HDFS: here this machine's files under the tests' own scheme (OtherSchemeFileSystem), which counts
 * the files Hadoop created there. The ledger is used by the next run, its lock refuses a second run, the log and the
 * listing read back.
 */
class OtherSchemePlacesTest {
    private LoopMount mount;
    private Path src, dst;

    @BeforeEach
    void tree() throws IOException {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.create("other-scheme", LoopMount.MIN_SIZE_MIB);
        src = Files.createDirectories(mount.dir().resolve("src"));
        dst = mount.dir().resolve("dst");
        for (int d = 0; d < 3; d++) {
            Path dir = Files.createDirectories(src.resolve("d" + d));
            for (int f = 0; f < 4; f++) Files.writeString(dir.resolve("f" + f), "data " + d + f);
        }
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

    @Test
    void aLedgerInAnotherSchemeIsWrittenThroughHadoopAndUsedByTheNextRun() throws IOException {
        String state = OtherSchemeFileSystem.place(mount.dir().resolve("state"));
        long created = OtherSchemeFileSystem.CREATED.get();
        JsonNode first = CommandLineRun.succeeded(mount.dir().resolve("r1.json"), "sync", "--delete", "--state", state, src + "/", dst.toString());
        assertEquals(0, first.at("/ledger_unchanged").asLong(), first.toString());
        assertTrue(OtherSchemeFileSystem.CREATED.get() >= created + 2, "the lock and the ledger's files went through Hadoop");
        assertFalse(Files.exists(mount.dir().resolve("state/LOCK")), "Hadoop's lock is removed at the end");
        JsonNode second = CommandLineRun.succeeded(mount.dir().resolve("r2.json"), "sync", "--delete", "--state", state, src + "/", dst.toString());
        assertEquals(entries(), second.at("/ledger_unchanged").asLong(), second.toString());
        TreeComparator.assertSameTree(src, dst);
        try (Stream<Path> names = Files.walk(mount.dir().resolve("state"))) {
            assertEquals(List.of(), names.filter(p -> p.toString().endsWith(".crc")).toList(), "no checksum files beside it");
        }
    }

    @Test
    void aLockInAnotherSchemeRefusesASecondRunUntilItIsRemoved() throws IOException {
        Path dir = Files.createDirectories(mount.dir().resolve("state"));
        String state = OtherSchemeFileSystem.place(dir);
        Files.writeString(dir.resolve("LOCK"), "pid 1, host elsewhere, started 2026-12-04T00:00:00Z");
        CommandLineRun refused = CommandLineRun.of("sync", "--state", state, src + "/", dst.toString());
        assertEquals(2, refused.exitCode(), refused.err());
        assertTrue(refused.err().contains("another spark-dcp run holds --state " + OtherSchemeFileSystem.SCHEME + ":" + dir + " (pid 1, host elsewhere, started "
                + "2026-12-04T00:00:00Z; if that run is gone, remove "), refused.err());
        assertFalse(Files.exists(dst), "refused before anything is written");
        Files.delete(dir.resolve("LOCK"));
        CommandLineRun.succeeded(mount.dir().resolve("r.json"), "sync", "--state", state, src + "/", dst.toString());
    }

    @Test
    void anItemLogAndASavedListingInAnotherSchemeReadBack() throws IOException {
        String log = OtherSchemeFileSystem.place(mount.dir().resolve("log"));
        String listing = OtherSchemeFileSystem.place(mount.dir().resolve("listing"));
        long created = OtherSchemeFileSystem.CREATED.get();
        JsonNode copy = CommandLineRun.succeeded(mount.dir().resolve("c.json"), "copy", "--log", log, "--save-listing", listing,
                src + "/", dst.toString());
        assertTrue(OtherSchemeFileSystem.CREATED.get() >= created + 4, "the log's part and _SUCCESS, the listing's part and _SUCCESS");
        List<ItemLine> lines = ItemLogDir.read(log);
        assertEquals(copy.at("/copied").asLong(), lines.stream().filter(l -> l.action().equals("copied")).count(), lines.toString());
        Path again = mount.dir().resolve("again");
        JsonNode fromListing = CommandLineRun.succeeded(mount.dir().resolve("l.json"), "copy", "--listing", listing, src + "/", again.toString());
        assertEquals(copy.at("/copied").asLong(), fromListing.at("/copied").asLong(), fromListing.toString());
        TreeComparator.assertSameTree(src, again);
    }
}

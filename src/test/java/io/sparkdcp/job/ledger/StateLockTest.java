package io.sparkdcp.job.ledger;

import io.sparkdcp.roots.RootHolds;
import io.sparkdcp.roots.UsageException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The state DIR's lock within one process (a flock conflicts between two open descriptions of DIR/LOCK, whoever
 * holds them): a second taker is refused naming the holder, closing releases, a dry run locks only a DIR that is there.
 */
@Tag("fast")
class StateLockTest {
    @TempDir
    Path tmp;

    private static String pidAndHost() throws IOException {
        return "pid " + Files.readSymbolicLink(Path.of("/proc/self")) + ", host " + Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
    }

    private static long openDescriptors() throws IOException {
        try (var fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        }
    }

    @Test
    void aSecondRunOnTheSameDirIsRefusedNamingTheHolderUntilTheFirstCloses() throws IOException {
        Path dir = tmp.resolve("state/deeper");
        try (StateLock first = StateLock.take(dir.toString())) {
            assertTrue(Files.isDirectory(dir), "DIR is made");
            String written = Files.readString(dir.resolve(StateLock.NAME));
            assertTrue(written.startsWith(pidAndHost() + ", started ") && written.endsWith("\n"), written);
            UsageException refused = assertThrows(UsageException.class, () -> StateLock.take(dir.toString()));
            assertEquals("another spark-dcp run holds --state " + dir + " (" + written.strip() + "); wait for it to end, or stop it",
                    refused.getMessage());
            assertThrows(UsageException.class, () -> StateLock.takeIfThere(dir.toString()), "a dry run is refused too");
            long open = openDescriptors();
            assertThrows(UsageException.class, () -> StateLock.take(dir.toString()));
            assertEquals(open, openDescriptors(), "a refused taker keeps no descriptor of LOCK open");
        }
        StateLock.take(dir.toString()).close();
    }

    @Test
    void aHolderNotYetWrittenIsSaidSo() throws IOException {
        Path dir = Files.createDirectory(tmp.resolve("state"));
        try (StateLock first = StateLock.take(dir.toString())) {
            Files.writeString(dir.resolve(StateLock.NAME), "");
            UsageException refused = assertThrows(UsageException.class, () -> StateLock.take(dir.toString()));
            assertEquals("another spark-dcp run holds --state " + dir + " (holder not yet written); wait for it to end, or stop it",
                    refused.getMessage());
        }
    }

    @Test
    void aDryRunLocksNothingWhereThereIsNoDirAndMakesNone() {
        Path dir = tmp.resolve("missing");
        try (StateLock none = StateLock.takeIfThere(dir.toString())) {
            assertFalse(Files.exists(dir));
            StateLock.take(dir.toString()).close();
        }
        StateLock.take(null).close(); // no DIR: a lock that holds nothing
        StateLock.takeIfThere(dir.toString()).close();
    }

    @Test
    void aDirThatCannotBeMadeIsOneUsageLine() throws IOException {
        Path file = Files.writeString(tmp.resolve("file"), "x");
        UsageException refused = assertThrows(UsageException.class, () -> StateLock.take(file.resolve("state").toString()));
        assertTrue(refused.getMessage().startsWith("--state " + file.resolve("state") + " cannot be locked: "), refused.getMessage());
    }

    @Test
    void holdingReleasesWhenTheRunReturnsOrWhenTheHoldsClose() {
        String dir = tmp.resolve("state").toString();
        assertEquals("done", StateLock.holding(dir, true, null, () -> {
            assertThrows(UsageException.class, () -> StateLock.take(dir), "held while the run goes on");
            return "done";
        }));
        StateLock.take(dir).close();
        try (RootHolds holds = new RootHolds()) {
            StateLock.holding(dir, true, holds, () -> null);
            assertThrows(UsageException.class, () -> StateLock.take(dir), "kept until the report is out");
        }
        StateLock.take(dir).close();
        assertEquals(1, StateLock.holding(tmp.resolve("other").toString(), false, null, () -> 1));
        assertFalse(Files.exists(tmp.resolve("other")), "a dry run makes no DIR");
    }
}

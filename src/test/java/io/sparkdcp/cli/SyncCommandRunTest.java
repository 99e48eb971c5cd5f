package io.sparkdcp.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The sync command in this JVM on Spark local[2], on the temp file system: dry run, then the real thing. */
class SyncCommandRunTest {
    @TempDir
    Path tmp;

    @Test
    void dryRunPrintsThePlanAndChangesNothingThenTheSyncDoesIt() throws IOException {
        Path src = Files.createDirectories(tmp.resolve("src/sub"));
        Files.writeString(src.resolve("new.txt"), "new");
        Files.writeString(src.resolve("same.txt"), "same");
        Path dst = Files.createDirectories(tmp.resolve("dst"));
        String[] first = {"sync", "--master", "local[2]", src + "/", dst.toString()};
        assertEquals(0, CommandLineRun.of(first).exitCode());
        Files.writeString(src.resolve("new2.txt"), "newer");
        Files.setPosixFilePermissions(dst.resolve("same.txt"), PosixFilePermissions.fromString("rwx------"));
        Files.writeString(dst.resolve("extra.txt"), "extra");

        CommandLineRun dry = CommandLineRun.of("sync", "--delete", "--dry-run", src + "/", dst.toString());
        assertEquals(0, dry.exitCode(), dry.err());
        assertTrue(dry.out().contains("copy: new2.txt\n"), dry.out());
        assertTrue(dry.out().contains("fix metadata: same.txt: mode\n"), dry.out());
        assertTrue(dry.out().contains("delete: extra.txt\n"), dry.out());
        assertTrue(dry.out().contains("nothing was changed"), dry.out());
        // The same plan judged on the executors, from their walks: the copy's plan there is the executors' too.
        CommandLineRun onExecutors = CommandLineRun.of("sync", "--delete", "--dry-run", "--master", "local[2]", "--walk", "distributed",
                src + "/", dst.toString());
        assertEquals(0, onExecutors.exitCode(), onExecutors.err());
        assertEquals(dry.out(), onExecutors.out());
        assertTrue(onExecutors.err().contains("walked on the executors"), onExecutors.err());
        assertTrue(Files.exists(dst.resolve("extra.txt")));
        assertFalse(Files.exists(dst.resolve("new2.txt")));

        Path report = tmp.resolve("report.json");
        CommandLineRun real = CommandLineRun.of("sync", "--master", "local[2]", "--delete", "--report", report.toString(),
                src + "/", dst.toString());
        assertEquals(0, real.exitCode(), real.err());
        JsonNode json = new ObjectMapper().readTree(report.toFile());
        assertEquals(1, json.at("/copied_by_type/file").asLong(), json.toString());
        assertEquals(1, json.at("/metadata_fixed_by_type/file").asLong(), json.toString());
        assertEquals(1, json.at("/deleted_by_type/file").asLong(), json.toString());
        assertFalse(Files.exists(dst.resolve("extra.txt")));
        assertEquals("newer", Files.readString(dst.resolve("new2.txt")));
        assertEquals(Files.getPosixFilePermissions(src.resolve("same.txt")), Files.getPosixFilePermissions(dst.resolve("same.txt")));
    }

    @Test
    void dryRunIntoAMissingDestinationCreatesNothing() throws IOException {
        Path src = Files.createDirectories(tmp.resolve("src"));
        Files.writeString(src.resolve("a"), "a");
        Path dst = tmp.resolve("no/dst");
        CommandLineRun dry = CommandLineRun.of("sync", "--dry-run", "--mkpath", src + "/", dst.toString());
        assertEquals(0, dry.exitCode(), dry.err());
        assertTrue(dry.out().contains("copy: a\n"), dry.out());
        CommandLineRun onExecutors = CommandLineRun.of("sync", "--dry-run", "--mkpath", "--master", "local[2]", "--walk", "distributed",
                src + "/", dst.toString());
        assertEquals(0, onExecutors.exitCode(), onExecutors.err());
        assertEquals(dry.out(), onExecutors.out());
        assertFalse(Files.exists(tmp.resolve("no")));
    }
}

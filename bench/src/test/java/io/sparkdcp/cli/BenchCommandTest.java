package io.sparkdcp.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkdcp.testing.LoopMount;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The bench command end to end on a small generated tree: one round, every engine contender. */
class BenchCommandTest {
    private static LoopMount mount;

    @BeforeAll
    static void mount() {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.create("bench", 400);
    }

    @AfterAll
    static void unmount() {
        if (mount != null) mount.close();
    }

    @Test
    void underStraceThePathWayResolvesMoreNamesPerFileThanTheSingleFd() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(io.sparkdcp.testing.Commands.available("strace") || "true".equals(System.getenv("CI")));
        CommandLineRun run = CommandLineRun.of("bench", "--json", "--rounds", "1", "--warmup", "0", "--contenders", "fd,path",
                "--dirs", "2", "--files-per-dir", "30", "--large-files", "0", "--tasks", "1", mount.dir().toString());
        assertEquals(0, run.exitCode(), run.err());
        JsonNode contenders = new ObjectMapper().readTree(run.out()).get("contenders");
        double fdLookups = contenders.get(0).get("path_lookups_per_file").asDouble();
        double pathLookups = contenders.get(1).get("path_lookups_per_file").asDouble();
        assertTrue(fdLookups > 0 && fdLookups < pathLookups, fdLookups + " vs " + pathLookups + ": " + contenders);
        assertTrue(contenders.get(0).get("file_syscalls_per_file").asDouble() > 0);
    }

    @Test
    void anUnknownContenderIsAUsageError() {
        CommandLineRun run = CommandLineRun.of("bench", "--contenders", "none,tar", mount.dir().toString());
        assertEquals(Main.EXIT_USAGE, run.exitCode());
        assertTrue(run.err().contains("unknown contender 'tar'"), run.err());
    }

    @Test
    void anExistingWorkloadIsAUsageErrorAndStaysAsItIs() throws Exception {
        java.nio.file.Path kept = Files.createDirectories(mount.dir().resolve("keep").resolve("bench-src"));
        Files.writeString(kept.resolve("f"), "kept");
        CommandLineRun run = CommandLineRun.of("bench", "--no-syscalls", "--contenders", "none", kept.getParent().toString());
        assertEquals(Main.EXIT_USAGE, run.exitCode());
        assertTrue(run.err().contains("exists: remove it or pass it as SRC"), run.err());
        assertEquals("kept", Files.readString(kept.resolve("f")), "the tree kept from an earlier run is not removed");
    }

    @Test
    void aLatencyProfileThatDoesNotExistIsAUsageError() {
        CommandLineRun run = CommandLineRun.of("bench", "--latency", "200us", "--profile", "nfs", mount.dir().toString());
        assertEquals(Main.EXIT_USAGE, run.exitCode());
        assertTrue(run.err().contains("unknown latency profile 'nfs'"), run.err());
    }

    @Test
    void generatesATreeCopiesItEachWayAndShowsTheExtraIoctlsOfThePathWay() throws Exception {
        CommandLineRun run = CommandLineRun.of("bench", "--json", "--no-syscalls", "--rounds", "1", "--warmup", "0", "--contenders", "none,fd,path,fd-always,fd-inplace",
                "--dirs", "4", "--files-per-dir", "5", "--large-files", "1", "--large-size", "64K", "--tasks", "2",
                "--threads-per-task", "2", mount.dir().toString());
        assertEquals(0, run.exitCode(), run.err());
        JsonNode json = new ObjectMapper().readTree(run.out());
        assertEquals(21, json.get("files").asLong(), "20 small files and a large one");
        JsonNode contenders = json.get("contenders");
        assertEquals(5, contenders.size());
        for (JsonNode c : contenders) assertEquals(0, c.get("failed").asLong(), c.toString());
        assertTrue(contenders.get(0).at("/step_calls_per_file/ioctl_get").isMissingNode(), "no project IDs: no ioctl");
        double fdSets = contenders.get(1).at("/step_calls_per_file/ioctl_set").asDouble();
        double pathSets = contenders.get(2).at("/step_calls_per_file/ioctl_set").asDouble();
        assertTrue(fdSets < pathSets, "the fd way sets only IDs that differ: " + fdSets + " vs " + pathSets);
        double alwaysSets = contenders.get(3).at("/step_calls_per_file/ioctl_set").asDouble();
        long entries = json.get("files").asLong() + json.get("directories").asLong();
        assertEquals(entries, Math.round(alwaysSets * json.get("files").asLong()), "fd-always sets every file and directory");
        assertEquals("single fd, always set", contenders.get(3).get("name").asText());
        assertEquals("single fd, in place", contenders.get(4).get("name").asText());
        assertEquals(1.0, contenders.get(1).at("/step_calls_per_file/link").asDouble(), "fd links each unnamed file into place");
        assertTrue(contenders.get(4).at("/step_calls_per_file/link").isMissingNode(), "in place: nothing linked " + contenders.get(4));
        try (var left = Files.list(mount.dir())) {
            assertFalse(left.anyMatch(p -> p.getFileName().toString().startsWith("bench-")), "generated tree and copies removed");
        }
    }
}

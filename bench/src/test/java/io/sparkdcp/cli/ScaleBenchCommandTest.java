package io.sparkdcp.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkdcp.bench.scale.ScaleTree;
import io.sparkdcp.testing.LoopMount;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** scale-bench end to end on a small XFS tree: it generates both trees, walks them every way, copies them and reports. */
class ScaleBenchCommandTest {
    @Test
    void generatesWalksCopiesAndReports() throws Exception {
        LoopMount.requireRootAndXfs();
        try (LoopMount mount = LoopMount.create("scale", 512)) {
            Path json = mount.dir().resolve("result.json");
            CommandLineRun run = CommandLineRun.of("scale-bench", "--master", "local[2]", "--entries", "2000",
                    "--small-entries", "300", "--files-per-dir", "20", "--dirs-per-group", "10", "--json", json.toString(),
                    mount.dir().toString());
            assertEquals(0, run.exitCode(), run.err());
            long expected = new ScaleTree(2000, 20, 10).actualEntries();
            JsonNode r = new ObjectMapper().readTree(json.toFile());
            assertEquals(expected, r.get("entries").asLong());
            for (JsonNode walk : r.get("walks")) assertEquals(expected, walk.get("entries").asLong(), walk.toString());
            assertEquals(expected, r.at("/copies/1/entries").asLong());
            // Heap per entry is noise on a tree this small; that it is measured and reported is what is checked.
            assertTrue(r.get("packedBytesPerEntry").isNumber() && r.get("objectBytesPerEntry").isNumber(), r.toString());
            assertTrue(run.out().contains("B/entry"), run.out());
            assertTrue(run.out().contains("distributed walk"), run.out());
            assertTrue(run.out().contains("vs small"), run.out());
        }
    }

    @Test
    void comparesTheDriverPlanWithTheExecutorPlanAndChecksBothCopies() throws Exception {
        LoopMount.requireRootAndXfs();
        try (LoopMount mount = LoopMount.create("scale-plans", 512)) {
            Path json = mount.dir().resolve("plans.json");
            CommandLineRun run = CommandLineRun.of("scale-bench", "--plans", "--master", "local[2]", "--entries", "2000",
                    "--small-entries", "300", "--files-per-dir", "20", "--dirs-per-group", "10", "--json", json.toString(),
                    mount.dir().toString());
            assertEquals(0, run.exitCode(), run.err());
            JsonNode runs = new ObjectMapper().readTree(json.toFile());
            assertEquals(4, runs.size(), runs.toString());
            // Two more copies, untimed and not among the runs: the big tree through each plan before any timed copy.
            try (java.util.stream.Stream<Path> copies = java.nio.file.Files.list(mount.dir())) {
                assertEquals(6, copies.filter(p -> p.getFileName().toString().startsWith("copy-of-")).count());
            }
            assertTrue(run.err().contains("warm-up copy of the big tree through the driver plan"), run.err());
            long big = new ScaleTree(2000, 20, 10).actualEntries();
            assertEquals("executors", runs.at("/2/plan").asText());
            assertEquals("driver", runs.at("/3/plan").asText());
            assertEquals(big, runs.at("/2/entries").asLong());
            for (JsonNode r : runs) {
                assertEquals(0, r.get("differences").asLong(), r.toString());
                assertTrue(r.get("driverBytesPerEntry").isNumber(), r.toString());
            }
            assertTrue(run.out().contains("driver B/entry"), run.out());
            // Where each copy's time went: Spark's jobs by phase, the executors' walk among them.
            assertTrue(run.out().contains("Stages: executors plan, big tree"), run.out());
            java.util.Map<String, Long> tasks = new java.util.HashMap<>();
            for (JsonNode phase : runs.at("/2/phases")) tasks.put(phase.get("name").asText(), phase.get("tasks").asLong());
            assertTrue(tasks.getOrDefault("walk", 0L) > 0 && tasks.getOrDefault("copy files", 0L) > 0, tasks.toString());
            assertTrue(runs.at("/2/cpuSeconds").asDouble() > 0, runs.toString());
        }
    }
}

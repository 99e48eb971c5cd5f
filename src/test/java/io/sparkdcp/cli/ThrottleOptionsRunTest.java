package io.sparkdcp.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** --max-ops and --bwlimit from the command line to the report; their timing is ThrottledCopyTest's. */
@Tag("fast")
class ThrottleOptionsRunTest {
    @TempDir
    Path tmp;

    @Test
    void theLimitsReachTheCopyAndTheReportShowsThemWithTheRatesAchieved() throws IOException {
        Path src = Files.createDirectories(tmp.resolve("src"));
        Files.writeString(src.resolve("a"), "alpha");
        Path report = tmp.resolve("report.json");
        CommandLineRun run = CommandLineRun.asLaunched("copy", "--max-ops", "100000", "--bwlimit", "1G",
                "--report", report.toString(), src + "/", tmp.resolve("dst").toString());
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("alpha", Files.readString(tmp.resolve("dst/a")));
        assertTrue(run.out().lines().anyMatch(l -> l.startsWith("limits: metadata calls 100,000/s (achieved ")
                && l.contains("data 1.0 GiB/s (achieved ")), run.out());
        JsonNode json = new ObjectMapper().readTree(report.toFile());
        assertEquals(100_000, json.at("/settings/max_ops_per_second").asLong());
        assertEquals(1L << 30, json.at("/settings/bwlimit_bytes_per_second").asLong());
        assertTrue(json.get("metadata_calls").asLong() > 0, json.toString());
        assertEquals(5, json.get("bytes_copied").asLong());
    }
}

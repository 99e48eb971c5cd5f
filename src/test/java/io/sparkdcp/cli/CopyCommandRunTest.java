package io.sparkdcp.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The copy command in this JVM on Spark local[2], on the temp file system: the CLI's wiring, not the engine. */
class CopyCommandRunTest {
    @TempDir
    Path tmp;

    @Test
    void copiesThenSkipsOnTheSecondRunAndReportsBoth() throws IOException {
        Path src = Files.createDirectories(tmp.resolve("src/sub"));
        Files.writeString(tmp.resolve("src/a.txt"), "alpha");
        Files.writeString(tmp.resolve("src/sub/b.txt"), "beta");
        Files.createSymbolicLink(tmp.resolve("src/link"), Path.of("a.txt"));
        Path dst = tmp.resolve("out/dst");
        Path report = tmp.resolve("report.json");
        String[] args = {"copy", "--master", "local[2]", "--report", report.toString(), tmp.resolve("src").toString(), dst.toString()};

        CommandLineRun first = CommandLineRun.of(args);
        assertEquals(0, first.exitCode(), first.err());
        assertEquals("alpha", Files.readString(dst.resolve("a.txt")));
        assertEquals("beta", Files.readString(dst.resolve("sub/b.txt")));
        assertEquals(Path.of("a.txt"), Files.readSymbolicLink(dst.resolve("link")));
        assertTrue(first.out().contains("bytes copied: 9 "), first.out());
        assertTrue(first.out().contains("open_src"), first.out());
        JsonNode json = new ObjectMapper().readTree(report.toFile());
        assertEquals(5, json.get("copied").asLong()); // root, sub, a.txt, b.txt, link
        assertEquals(0, json.get("failed").asLong());
        assertEquals(9, json.get("bytes_copied").asLong());
        assertEquals(2, json.at("/copied_by_type/file").asLong());
        assertEquals(0, json.get("exit_code").asInt());
        assertEquals(dst.toString(), json.get("destination").asText());

        // Progress lines every second: accepted (this copy is too short for one; LiveProgressTest
        // watches a slow one).
        String[] withProgress = {"copy", "--master", "local[2]", "--progress", "1", "--report", report.toString(),
                tmp.resolve("src").toString(), dst.toString()};
        CommandLineRun second = CommandLineRun.of(withProgress);
        assertEquals(0, second.exitCode(), second.err());
        JsonNode again = new ObjectMapper().readTree(report.toFile());
        assertEquals(0, again.get("copied").asLong(), again.toString());
        assertEquals(5, again.get("skipped").asLong(), again.toString());
    }
}

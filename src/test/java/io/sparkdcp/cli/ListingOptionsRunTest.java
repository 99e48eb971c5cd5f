package io.sparkdcp.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** --walk, --save-listing and --listing through the command line, on Spark local[2] in this JVM. */
class ListingOptionsRunTest {
    @TempDir
    Path tmp;

    @Test
    void aListingSavedByOneRunServesTheNextAndAWrongOneIsAUsageError() throws IOException {
        Path src = tmp.resolve("src");
        Files.createDirectories(src.resolve("sub"));
        Files.writeString(tmp.resolve("src/a.txt"), "alpha");
        Files.writeString(tmp.resolve("src/sub/b.txt"), "beta");
        String listing = tmp.resolve("listing").toString();

        CommandLineRun save = CommandLineRun.of("copy", "--master", "local[2]", "--walk", "distributed",
                "--save-listing", listing, src + "/", tmp.resolve("dst1").toString());
        assertEquals(0, save.exitCode(), save.err());
        assertTrue(save.err().contains("walked on the executors"), save.err());
        assertTrue(Files.exists(tmp.resolve("listing/_SUCCESS")));

        // Added after the listing was saved: a copy from the listing does not see it.
        Files.writeString(tmp.resolve("src/later.txt"), "later");
        Path report = tmp.resolve("report.json");
        CommandLineRun reuse = CommandLineRun.of("copy", "--master", "local[2]", "--listing", listing, "--report", report.toString(),
                tmp.resolve("src") + "/", tmp.resolve("dst2").toString());
        assertEquals(0, reuse.exitCode(), reuse.err());
        JsonNode json = new ObjectMapper().readTree(report.toFile());
        assertEquals("saved", json.at("/settings/listed_by").asText());
        assertEquals(listing, json.at("/settings/listing_dir").asText());
        assertEquals("beta", Files.readString(tmp.resolve("dst2/sub/b.txt")));
        assertFalse(Files.exists(tmp.resolve("dst2/later.txt")));

        CommandLineRun otherSource = CommandLineRun.of("copy", "--master", "local[2]", "--listing", listing,
                tmp.resolve("src/sub").toString(), tmp.resolve("dst3").toString());
        assertEquals(2, otherSource.exitCode(), otherSource.err());
        assertTrue(otherSource.err().contains("not of SRC"), otherSource.err());
        assertFalse(Files.exists(tmp.resolve("dst3")));

        CommandLineRun delete = CommandLineRun.of("sync", "--master", "local[2]", "--delete", "--listing", listing,
                tmp.resolve("src") + "/", tmp.resolve("dst2").toString());
        assertEquals(2, delete.exitCode(), delete.err());
        assertTrue(delete.err().contains("--delete"), delete.err());

        CommandLineRun badWalk = CommandLineRun.of("copy", "--walk", "sideways", tmp.resolve("src").toString(), tmp.resolve("dst4").toString());
        assertEquals(2, badWalk.exitCode(), badWalk.err());
        assertTrue(badWalk.err().contains("auto, driver or distributed"), badWalk.err());
    }
}

package io.sparkdcp.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertFalse;

@Tag("fast")
class ReportJsonTest {
    @TempDir
    Path tmp;

    private static JsonNode parse(String text) throws IOException {
        return new ObjectMapper().readTree(text);
    }

    @Test
    void holdsCountsStepsFailuresAndSettings() throws IOException {
        JsonNode json = parse(ReportJson.render(SampleReports.mixed()));
        assertEquals(5, json.get("copied").asLong()); // 4 entries + 1 hard link
        assertEquals(2, json.get("skipped").asLong());
        assertEquals(1, json.get("failed").asLong());
        assertEquals(1, json.get("links").asLong());
        assertEquals(3_000_000, json.get("bytes_copied").asLong());
        assertEquals(2_000_000_000L, json.get("wall_nanos").asLong());
        assertEquals(8, json.get("entries_listed").asLong());
        assertEquals(3_000_000, json.get("bytes_listed").asLong());
        assertEquals(true, json.get("walk_complete").asBoolean());
        assertEquals(1, json.get("exit_code").asInt());
        assertEquals(2, json.at("/copied_by_type/file").asLong());
        assertEquals(1, json.at("/copied_by_type/char_device").asLong());
        assertEquals(1, json.at("/skipped_by_type/socket").asLong());
        assertEquals(3, json.at("/steps/open_src/count").asLong());
        assertEquals(3_000_000, json.at("/steps/open_src/nanos").asLong());
        assertEquals(1, json.at("/steps/data/count").asLong());
        assertFalse(json.get("steps").has("xattr_set"), "steps that never ran are left out");
        assertEquals("d/f", json.at("/failures/0/path").asText());
        assertEquals("openat", json.at("/failures/0/op").asText());
        assertEquals("EACCES", json.at("/failures/0/errno").asText());
        assertEquals("Permission denied", json.at("/failures/0/message").asText());
        assertEquals("sockets are not copied", json.at("/notices/0/message").asText());
        assertEquals("/src", json.get("source").asText());
        assertEquals("/dst", json.get("destination").asText());
        assertEquals("non-lustre", json.at("/settings/xattrs").asText());
        assertEquals("fd", json.at("/settings/xattr_access").asText());
        assertEquals(true, json.at("/settings/project_ids").asBoolean());
        assertEquals(false, json.at("/settings/sync").asBoolean());
        assertEquals(false, json.at("/settings/atomic").asBoolean());
        assertEquals("driver", json.at("/settings/listed_by").asText());
        assertTrue(json.at("/settings/listing_dir").isNull());
    }

    /** Scripts and Airflow DAGs read these keys: a new option adds its key here, none is renamed or dropped. */
    @Test
    void theSettingsKeysAreTheInterface() throws IOException {
        JsonNode settings = parse(ReportJson.render(SampleReports.mixed(io.sparkdcp.copy.throttle.Throttle.NONE))).get("settings");
        List<String> keys = new java.util.ArrayList<>();
        settings.fieldNames().forEachRemaining(keys::add);
        assertEquals(List.of("xattrs", "xattr_access", "project_ids", "sync", "compare_contents", "atomic", "verify", "fsync",
                "update", "inplace", "listed_by", "listing_dir", "max_ops_per_second", "bwlimit_bytes_per_second"), keys);
    }

    @Test
    void writeReplacesAnOlderReportAndLeavesNoTemporaryFile() throws IOException {
        Path file = Files.writeString(tmp.resolve("report.json"), "old");
        ReportJson.write(SampleReports.mixed(), file);
        assertEquals(1, parse(Files.readString(file)).get("failed").asLong());
        try (Stream<Path> files = Files.list(tmp)) {
            assertEquals(List.of(file), files.toList());
        }
    }

    @Test
    void holdsTheLimitsAndTheRatesAchieved() throws IOException {
        JsonNode none = parse(ReportJson.render(SampleReports.mixed()));
        assertTrue(none.at("/settings/max_ops_per_second").isNull(), none.toString());
        assertTrue(none.at("/settings/bwlimit_bytes_per_second").isNull(), none.toString());
        assertEquals(3, none.get("metadata_calls").asLong()); // open_src; data moves bytes
        assertEquals(1.5, none.get("metadata_calls_per_second").asDouble(), 1e-9);
        assertEquals(1.5e6, none.get("bytes_copied_per_second").asDouble(), 1e-3);
        JsonNode limited = parse(ReportJson.render(SampleReports.mixed(io.sparkdcp.copy.throttle.Throttle.of(100, 2_000_000))));
        assertEquals(100, limited.at("/settings/max_ops_per_second").asLong());
        assertEquals(2_000_000, limited.at("/settings/bwlimit_bytes_per_second").asLong());
    }
}

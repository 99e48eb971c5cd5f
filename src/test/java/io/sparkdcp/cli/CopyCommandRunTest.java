package io.sparkdcp.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The copy command in this JVM, on Spark local[2] and on threads, on the temp file system: the CLI's wiring, not the engine. */
class CopyCommandRunTest {
    @TempDir
    Path tmp;

    /** As for cp and rsync: "--" between SRC and DST ends the options (picocli refused it there). */
    @Test
    void aDoubleDashBetweenTheOperandsEndsTheOptions() throws IOException {
        Path src = Files.createDirectories(tmp.resolve("src"));
        Files.writeString(src.resolve("a.txt"), "alpha");
        Path dst = Files.createDirectories(tmp.resolve("dst"));

        CommandLineRun run = CommandLineRun.of("copy", src + "/", "--", dst.resolve("copy").toString());

        assertEquals(0, run.exitCode(), run.err());
        assertEquals("alpha", Files.readString(dst.resolve("copy/a.txt")));
    }

    /** usage.md's --inplace copy, through the CLI: the files land under their names and the report says so. */
    @Test
    void inPlaceCopiesTheTreeAndTheReportNamesTheMode() throws IOException {
        Path src = Files.createDirectories(tmp.resolve("src/sub"));
        Files.writeString(tmp.resolve("src/a.txt"), "alpha");
        Files.writeString(src.resolve("b.txt"), "beta");
        Path report = tmp.resolve("report.json");

        CommandLineRun run = CommandLineRun.of("copy", "--inplace", "--report", report.toString(), tmp.resolve("src") + "/",
                tmp.resolve("dst").toString());

        assertEquals(0, run.exitCode(), run.err());
        assertEquals("alpha", Files.readString(tmp.resolve("dst/a.txt")));
        assertEquals("beta", Files.readString(tmp.resolve("dst/sub/b.txt")));
        JsonNode json = new ObjectMapper().readTree(report.toFile());
        assertEquals(4, json.get("copied").asLong(), json.toString()); // root, sub, a.txt, b.txt
        assertTrue(json.at("/settings/inplace").asBoolean(), json.toString());
    }

    @Test
    void copiesThenSkipsOnTheSecondRunAndReportsBoth() throws IOException {
        Path src = Files.createDirectories(tmp.resolve("src/sub"));
        Files.writeString(tmp.resolve("src/a.txt"), "alpha");
        Files.writeString(tmp.resolve("src/sub/b.txt"), "beta");
        Files.createSymbolicLink(tmp.resolve("src/link"), Path.of("a.txt"));
        Path dst = tmp.resolve("out/dst");
        Path report = tmp.resolve("report.json");
        String[] args = {"copy", "--master", "local[2]", "--mkpath", "--report", report.toString(), tmp.resolve("src") + "/", dst.toString()};

        CommandLineRun first = CommandLineRun.of(args);
        assertEquals(0, first.exitCode(), first.err());
        assertEquals("alpha", Files.readString(dst.resolve("a.txt")));
        assertEquals("beta", Files.readString(dst.resolve("sub/b.txt")));
        assertEquals(Path.of("a.txt"), Files.readSymbolicLink(dst.resolve("link")));
        assertTrue(first.out().contains("bytes copied: 9 "), first.out());
        assertFalse(first.out().contains("open_src"), "the step table is -v's: " + first.out());
        JsonNode json = new ObjectMapper().readTree(report.toFile());
        assertTrue(json.at("/steps/open_src/count").asLong() > 0, "the JSON keeps the steps: " + json);
        assertEquals(5, json.get("copied").asLong()); // root, sub, a.txt, b.txt, link
        assertEquals(0, json.get("failed").asLong());
        assertEquals(9, json.get("bytes_copied").asLong());
        assertEquals(2, json.at("/copied_by_type/file").asLong());
        assertEquals(0, json.get("exit_code").asInt());
        assertEquals(dst.toString(), json.get("destination").asText());

        // Progress lines every second: accepted (this copy is too short for one; LiveProgressTest
        // watches a slow one).
        String[] withProgress = {"copy", "--master", "local[2]", "--progress", "1", "--report", report.toString(),
                tmp.resolve("src") + "/", dst.toString()};
        CommandLineRun second = CommandLineRun.of(withProgress);
        assertEquals(0, second.exitCode(), second.err());
        JsonNode again = new ObjectMapper().readTree(report.toFile());
        assertEquals(0, again.get("copied").asLong(), again.toString());
        assertEquals(5, again.get("skipped").asLong(), again.toString());
    }

    @Test
    void withoutMasterTheCopyRunsOnThreadsAndReportsExactlyWhatSparkReports() throws IOException {
        Path src = tmp.resolve("src");
        Files.createDirectories(src.resolve("sub"));
        Files.writeString(src.resolve("a.txt"), "alpha");
        Files.writeString(src.resolve("sub/b.txt"), "beta");
        Files.createDirectories(src.resolve("other"));
        Files.createSymbolicLink(tmp.resolve("src/link"), Path.of("a.txt"));
        // A file where the source has a directory: that entry fails, the rest is copied, exit 1.
        Map<String, CommandLineRun> runs = new java.util.LinkedHashMap<>();
        Map<String, JsonNode> reports = new java.util.LinkedHashMap<>();
        for (List<String> runner : List.<List<String>>of(List.of(), List.of("--master", "local[2]"))) {
            String name = runner.isEmpty() ? "threads" : "spark";
            Path dst = Files.createDirectories(tmp.resolve(name + "/dst"));
            Files.writeString(dst.resolve("other"), "not a directory");
            Path report = tmp.resolve(name + ".json");
            List<String> args = new java.util.ArrayList<>(List.of("copy", "--report", report.toString()));
            args.addAll(runner);
            args.addAll(List.of(src + "/", dst.toString()));
            CommandLineRun run = CommandLineRun.of(args.toArray(String[]::new));
            assertTrue(Files.exists(dst.resolve("sub/b.txt")), name + ": " + run.out() + run.err());
            assertEquals("beta", Files.readString(dst.resolve("sub/b.txt")), name);
            runs.put(name, run);
            reports.put(name, withoutTimesAndRoots(new ObjectMapper().readTree(report.toFile())));
        }
        CommandLineRun threads = runs.get("threads"), spark = runs.get("spark");
        assertEquals(1, threads.exitCode(), threads.err());
        assertEquals(spark.exitCode(), threads.exitCode());
        assertEquals(reports.get("spark"), reports.get("threads"));
        assertEquals(1, reports.get("threads").get("failed").asLong(), reports.get("threads").toString());
        assertEquals(withoutTimes(spark.out(), tmp.resolve("spark")), withoutTimes(threads.out(), tmp.resolve("threads")));
        assertEquals(withoutTimes(spark.err(), tmp.resolve("spark")), withoutTimes(threads.err(), tmp.resolve("threads")));
        assertTrue(threads.err().contains("spark-dcp: failed: other: mkdirat EEXIST"), threads.err());
    }

    /** The report without what differs from run to run: the wall time and rates over it, step times, the destination. */
    private static JsonNode withoutTimesAndRoots(JsonNode report) {
        ObjectNode o = (ObjectNode) report;
        o.remove(List.of("wall_nanos", "metadata_calls_per_second", "bytes_copied_per_second", "destination", "metadata_calls"));
        for (Iterator<JsonNode> steps = o.get("steps").elements(); steps.hasNext(); ) ((ObjectNode) steps.next()).remove("nanos");
        // A destination directory's state (its stat, default ACL and project) is read once per task that needs it, and
        // how many tasks need one directory's depends on how the run split its work: those counts may differ by one.
        for (String step : List.of("stat_dst", "xattr_get", "ioctl_get")) if (o.get("steps").has(step)) ((ObjectNode) o.get("steps").get(step)).remove("count");
        return o;
    }

    /** Text output without the wall time and the steps' times (their counts stay), with the run's own directory as DIR. */
    private static String withoutTimes(String text, Path runDirectory) {
        return text.replace(runDirectory.toString(), "DIR").replaceAll("(?m)^wall time: .*$", "wall time")
                .replaceAll("(?m)^(\\S+ +[\\d,]+) +[\\d,.]+ +[\\d,.]+ +[\\d,.]+%$", "$1")
                .replaceAll("(?m)^(spark-dcp: progress: [^,]+, [^,]+), .*$", "$1"); // the last line's rates are the run's own
    }
}

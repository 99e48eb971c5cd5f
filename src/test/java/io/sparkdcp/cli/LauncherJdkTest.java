package io.sparkdcp.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkdcp.cli.LauncherTest.Launch;
import io.sparkdcp.testing.Jdks;
import io.sparkdcp.testing.Jdks.Jdk;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which JDK the launcher runs a copy on threads on, with real launcher processes: JAVA_HOME's when set,
 * else java on PATH, whatever JDK 25 is installed beside them (measured, it starts no faster); the same
 * report on 17 and 25; not one JVM warning on 25, with or without its AOT cache. Which JVM ran is read from its own log
 * (-Xlog through JAVA_TOOL_OPTIONS into a file: stdout stays the report's).
 */
class LauncherJdkTest {
    /** A cache directory that cannot be made: no cache is made or mapped. */
    private static final String NO_CACHE = "/dev/null/no-cache";

    @TempDir
    Path tmp;

    private Launch launch(Map<String, String> environment, String... args) throws IOException, InterruptedException {
        return LauncherTest.launch(tmp, null, environment, args);
    }

    private Path smallTree() throws IOException {
        return LauncherClassArchiveTest.smallTree(tmp);
    }

    /** java on PATH without JAVA_HOME, JDK 17's or 25's: a JDK 25 installed beside it is not sought out. */
    @Test
    void withoutJavaHomeACopyRunsOnJavaOnPath() throws Exception {
        Path src = smallTree();
        for (Jdk onPath : List.of(Jdks.current(), Jdks.newest25())) {
            Map<String, String> environment = environment(null, NO_CACHE);
            environment.put("PATH", onPath.home().resolve("bin") + ":" + System.getenv("PATH"));
            assertACopyRunsOn(onPath, environment, src);
        }
    }

    @Test
    void javaHomeWinsWhateverItsVersion() throws Exception {
        Path src = smallTree();
        for (Jdk home : List.of(Jdks.current(), Jdks.newest25())) assertACopyRunsOn(home, environment(home.home(), NO_CACHE), src);
    }

    /** A copy of src launched in this environment runs on jdk (read from its JVM's own log) and writes no JVM line. */
    private void assertACopyRunsOn(Jdk jdk, Map<String, String> environment, Path src) throws Exception {
        Path log = tmp.resolve("jvm-" + jdk.version().feature() + (environment.get("JAVA_HOME") == null ? "-path" : "-home") + ".log");
        environment.put("JAVA_TOOL_OPTIONS", "-Xlog:gc+init=info:file=" + log);
        Launch copy = launch(environment, "copy", src + "/", tmp.resolve("dst-" + log.getFileName()).toString());
        assertEquals(0, copy.exitCode(), copy.describe());
        assertEquals(jdk.version().version(), versionIn(log).version(), copy.describe());
        // The JVM names the JAVA_TOOL_OPTIONS this test sets; anything else on stderr must be the command's own.
        assertEquals("", copy.err().lines().filter(l -> !l.startsWith("spark-dcp: ") && !l.startsWith("Picked up JAVA_TOOL_OPTIONS: "))
                .collect(Collectors.joining("\n")), copy.describe());
    }

    /** What a user or Airflow reads, stdout and the JSON report, does not depend on the JDK (times aside). */
    @Test
    void theReportIsTheSameOnJdk17AndJdk25() throws Exception {
        Jdk jdk25 = Jdks.newest25();
        Path src = smallTree();
        Path dst = tmp.resolve("dst");
        Path report = tmp.resolve("report.json");
        Map<Boolean, String> stdout = new HashMap<>();
        Map<Boolean, JsonNode> json = new HashMap<>();
        for (boolean on25 : List.of(false, true)) {
            Launch copy = launch(environment(on25 ? jdk25.home() : Jdks.current().home(), NO_CACHE),
                    "copy", "--report", report.toString(), src + "/", dst.toString());
            assertEquals(0, copy.exitCode(), copy.describe());
            stdout.put(on25, withoutTimes(copy.out()));
            json.put(on25, withoutTimes(new ObjectMapper().readTree(report.toFile())));
            Files.delete(report);
            try (Stream<Path> walk = Files.walk(dst)) {
                for (Path p : walk.sorted((a, b) -> b.compareTo(a)).toList()) Files.delete(p);
            }
        }
        assertTrue(stdout.get(true).contains("total                   5"), stdout.get(true));
        assertEquals(stdout.get(false), stdout.get(true));
        assertEquals(json.get(false), json.get(true));
    }

    /**
     * JDK 25 warns on stderr about jffi's System.load unless native access is granted, and names an AOT
     * cache it cannot use: neither may reach a user's terminal, before the cache is made or after.
     */
    @Test
    void noJvmWarningOnJdk25BeforeOrAfterItsAotCacheIsMade() throws Exception {
        Jdk jdk25 = Jdks.newest25();
        Path src = smallTree();
        Path cache = tmp.resolve("cache");
        Map<String, String> environment = environment(jdk25.home(), cache.toString());
        Launch first = launch(environment, "copy", src + "/", tmp.resolve("dst").toString());
        assertOnlyTheCommandsOwnOutput(first, "spark-dcp copy ");
        Launch sync = launch(environment, "sync", "--delete", src + "/", tmp.resolve("dst").toString());
        assertOnlyTheCommandsOwnOutput(sync, "spark-dcp sync ");
        Launch compare = launch(environment, "compare", src + "/", tmp.resolve("dst").toString());
        assertOnlyTheCommandsOwnOutput(compare, "compared ");

        LauncherClassArchiveTest.archivesWhenMade(cache, "aot", 1);
        Files.writeString(cache.resolve(onlyAotCache(cache)), "not an AOT cache\n");
        Launch unusable = launch(environment, "copy", src + "/", tmp.resolve("dst2").toString());
        assertOnlyTheCommandsOwnOutput(unusable, "spark-dcp copy ");
    }

    private static void assertOnlyTheCommandsOwnOutput(Launch run, String reportStart) {
        assertEquals(0, run.exitCode(), run.describe());
        assertTrue(run.out().startsWith(reportStart), run.describe());
        for (String line : run.err().split("\n", -1))
            assertTrue(line.isEmpty() || line.startsWith("spark-dcp: "), "not the command's own line on stderr: " + run.describe());
    }

    private static String onlyAotCache(Path cache) throws IOException {
        try (Stream<Path> files = Files.list(cache)) {
            List<String> names = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".aot")).toList();
            assertEquals(1, names.size(), names.toString());
            return names.get(0);
        }
    }

    /** The version in a JVM's gc+init log ("Version: 25.0.3+9-LTS (release)"). */
    private static Runtime.Version versionIn(Path log) throws IOException {
        Matcher m = Pattern.compile("\\[gc,init\\] Version: (\\S+)").matcher(Files.readString(log));
        assertTrue(m.find(), "no version in " + Files.readString(log));
        return Runtime.Version.parse(m.group(1));
    }

    /** The step table's rows without their times, and the wall time line's numbers masked. */
    private static String withoutTimes(String report) {
        Pattern stepRow = Pattern.compile("^(\\S+ +[\\d,]+) +[\\d.,]+ +[\\d.,]+ +[\\d.]+%$");
        return report.lines().map(line -> {
            Matcher row = stepRow.matcher(line);
            if (row.matches()) return row.group(1);
            return line.startsWith("wall time:") ? line.replaceAll("[\\d.,]+", "#") : line;
        }).collect(Collectors.joining("\n"));
    }

    /** The JSON report without the fields that are times or rates. */
    private static JsonNode withoutTimes(JsonNode node) {
        if (node instanceof ObjectNode object) {
            for (Iterator<String> names = object.fieldNames(); names.hasNext(); ) {
                String name = names.next();
                if (name.endsWith("nanos") || name.endsWith("per_second")) names.remove();
                else withoutTimes(object.get(name));
            }
        }
        return node;
    }

    /** JAVA_HOME set to {@code javaHome}, or unset when null; no JAVA_TOOL_OPTIONS; the cache directory. */
    private static Map<String, String> environment(Path javaHome, String cache) {
        Map<String, String> environment = new HashMap<>();
        environment.put("JAVA_HOME", javaHome == null ? null : javaHome.toString());
        environment.put("JAVA_TOOL_OPTIONS", null);
        environment.put("SPARK_DCP_CACHE_DIR", cache);
        return environment;
    }

}

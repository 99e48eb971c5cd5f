package io.sparkdcp.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * submit-scripts/spark-dcp run as a user runs it: a separate process with this process's
 * environment. Surefire runs before {@code package}, so the first launch may build the jars itself.
 */
class LauncherTest {
    /** Surefire's working directory is the project. */
    private static final Path PROJECT = Path.of("").toAbsolutePath();
    private static final Path LAUNCHER = PROJECT.resolve("submit-scripts/spark-dcp");
    /** Room for a cold build on a fresh machine (downloads included) plus the copy. */
    private static final long TIMEOUT_MINUTES = 5;

    @TempDir
    Path tmp;

    record Launch(int exitCode, String out, String err) {
        String describe() {
            return "exit " + exitCode + "\nstdout:\n" + out + "\nstderr:\n" + err;
        }
    }

    private Launch launch(String... args) throws IOException, InterruptedException {
        return launch(Map.of(), args);
    }

    private Launch launch(Map<String, String> environment, String... args) throws IOException, InterruptedException {
        return launchIn(null, environment, args);
    }

    /** @param directory the launcher's working directory; null for this process's */
    private Launch launchIn(Path directory, Map<String, String> environment, String... args) throws IOException, InterruptedException {
        return launch(tmp, directory, environment, args);
    }

    /**
     * The launcher in {@code directory} (null: this process's), with this process's environment changed
     * by {@code environment} (a null value unsets); its output in files under tmp.
     */
    static Launch launch(Path tmp, Path directory, Map<String, String> environment, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(LAUNCHER.toString()));
        command.addAll(List.of(args));
        // Files, not pipes: nothing to drain while waiting, and a chatty build cannot block.
        Path out = Files.createTempFile(tmp, "stdout", ".txt");
        Path err = Files.createTempFile(tmp, "stderr", ".txt");
        ProcessBuilder builder = new ProcessBuilder(command);
        environment.forEach((name, value) -> {
            if (value == null) builder.environment().remove(name);
            else builder.environment().put(name, value);
        });
        if (directory != null) builder.directory(directory.toFile());
        Process process = builder
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        boolean finished = process.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES);
        if (!finished) process.destroyForcibly().waitFor();
        assertTrue(finished, "the launcher ran more than " + TIMEOUT_MINUTES + " minutes; stderr:\n" + Files.readString(err));
        return new Launch(process.exitValue(), Files.readString(out), Files.readString(err));
    }

    /** a.txt, sub/b.txt, other/c.txt and a symlink to a.txt. */
    private Path smallTree() throws IOException {
        Path src = Files.createDirectories(tmp.resolve("src"));
        Files.writeString(src.resolve("a.txt"), "alpha\n");
        Files.writeString(Files.createDirectory(src.resolve("sub")).resolve("b.txt"), "beta\n");
        Files.writeString(Files.createDirectory(src.resolve("other")).resolve("c.txt"), "gamma\n");
        Files.createSymbolicLink(src.resolve("link"), Path.of("a.txt"));
        return src;
    }

    @Test
    void copiesATreeAndExitsZero() throws Exception {
        Path src = smallTree();
        Path dst = tmp.resolve("dst");
        Launch run = launch("copy", "--master", "local[2]", src + "/", dst.toString());
        assertEquals(0, run.exitCode(), run.describe());
        assertEquals("alpha\n", Files.readString(dst.resolve("a.txt")));
        assertEquals("beta\n", Files.readString(dst.resolve("sub/b.txt")));
        assertEquals("gamma\n", Files.readString(dst.resolve("other/c.txt")));
        assertEquals(Path.of("a.txt"), Files.readSymbolicLink(dst.resolve("link")));
        assertTrue(run.out().contains("failed: 0"), run.describe());
        assertFalse(run.err().contains(" INFO "), "quiet by default: " + run.describe());
    }

    /**
     * A local Spark binds to 127.0.0.1 (SPARK_LOCAL_IP, set by the launcher for local runs): no warning that
     * the host's name resolves to a loopback address, which Spark gives where SPARK_LOCAL_IP is unset.
     */
    @Test
    void aLocalRunDoesNotWarnThatTheHostNameIsALoopbackAddress() throws Exception {
        Map<String, String> unset = new java.util.HashMap<>();
        unset.put("SPARK_LOCAL_IP", null);
        Launch run = launch(unset, "copy", "--master", "local[1]", smallTree() + "/", tmp.resolve("dst").toString());
        assertEquals(0, run.exitCode(), run.describe());
        assertFalse(run.err().contains("loopback address") || run.err().contains("SPARK_LOCAL_IP"), run.describe());
    }

    /**
     * Without --master the launcher runs the copy on threads in its JVM, on a class path without
     * Spark's and Hadoop's jars: a copy, sync or compare that still needed one of their classes fails here.
     */
    @Test
    void copiesSyncsAndComparesWithoutMasterOnThreadsWithoutSparksClasses() throws Exception {
        Path src = smallTree();
        Path dst = tmp.resolve("dst");
        Path report = tmp.resolve("report.json");
        Launch copy = launch("copy", "--report", report.toString(), src + "/", dst.toString());
        assertEquals(0, copy.exitCode(), copy.describe());
        assertEquals("beta\n", Files.readString(dst.resolve("sub/b.txt")));
        assertEquals(Path.of("a.txt"), Files.readSymbolicLink(dst.resolve("link")));
        JsonNode json = new ObjectMapper().readTree(report.toFile());
        assertEquals(7, json.get("copied").asLong(), json.toString());
        assertEquals("driver", json.at("/settings/listed_by").asText());

        Files.writeString(src.resolve("a.txt"), "alpha, longer\n");
        Launch sync = launch("sync", "--delete", src + "/", dst.toString());
        assertEquals(0, sync.exitCode(), sync.describe());
        assertEquals("alpha, longer\n", Files.readString(dst.resolve("a.txt")));

        Launch compare = launch("compare", src + "/", dst.toString());
        assertEquals(0, compare.exitCode(), compare.describe());
        Files.writeString(dst.resolve("sub/b.txt"), "beta, changed\n");
        Launch differs = launch("compare", src + "/", dst.toString());
        assertEquals(1, differs.exitCode(), differs.describe());
        assertTrue(differs.out().contains("differences in 1 entry"), differs.describe());
    }

    /**
     * An argument that begins with @ is a path, as for cp and rsync. picocli read the arguments of the file named after
     * the @ in its place: SRC "@data/" became the lines of a file "data/" (a stack trace when data/ is a directory),
     * and here "--dry-run" from the file "data".
     */
    @Test
    void anArgumentThatBeginsWithAtIsAPathNotAFileOfArguments() throws Exception {
        Files.writeString(Files.createDirectories(tmp.resolve("@data")).resolve("f"), "copied\n");
        Files.writeString(tmp.resolve("data"), "--dry-run\n");
        Launch copy = launchIn(tmp, Map.of(), "copy", "@data/", "out");
        assertEquals(0, copy.exitCode(), copy.describe());
        assertEquals("copied\n", Files.readString(tmp.resolve("out/f")));
    }

    /**
     * A local copy's JVM sends its own warnings to stderr: stdout is the report's. A heap of 32m draws
     * two, about the launcher's fixed young generation. No class archive is made (the cache cannot be).
     */
    @Test
    void theJvmsWarningsLeaveTheReportAloneOnStdout() throws Exception {
        Path src = smallTree();
        Launch copy = launch(Map.of("SPARK_DCP_DRIVER_MEMORY", "32m", "SPARK_DCP_CACHE_DIR", "/dev/null/no-cache"),
                "copy", src + "/", tmp.resolve("dst").toString());
        assertEquals(0, copy.exitCode(), copy.describe());
        assertTrue(copy.out().startsWith("spark-dcp copy "), copy.describe());
        assertTrue(copy.err().contains("[warning]"), "the JVM still warns, on stderr: " + copy.describe());
    }

    @Test
    void verboseAddsSparksInfoMessages() throws Exception {
        Launch run = launch("copy", "--verbose", "--master", "local[1]", smallTree() + "/", tmp.resolve("dst").toString());
        assertEquals(0, run.exitCode(), run.describe());
        assertTrue(run.err().contains(" INFO SparkContext: "), run.describe());
    }

    @Test
    void missingSourceExitsTwoAndWritesNothing() throws Exception {
        Path dst = tmp.resolve("dst");
        Launch run = launch("copy", tmp.resolve("absent").toString(), dst.toString());
        assertEquals(2, run.exitCode(), run.describe());
        assertTrue(run.err().contains("spark-dcp: source " + tmp.resolve("absent") + " does not exist"), run.describe());
        assertFalse(Files.exists(dst));
    }

    @Test
    void unknownOptionExitsTwo() throws Exception {
        Launch run = launch("copy", "--frobnicate", smallTree() + "/", tmp.resolve("dst").toString());
        assertEquals(2, run.exitCode(), run.describe());
        assertTrue(run.err().contains("spark-dcp: Unknown option: '--frobnicate'"), run.describe());
    }

    @Test
    void failedEntryExitsOneIsReportedAndTheRestIsCopied() throws Exception {
        Path src = smallTree();
        Path dst = Files.createDirectory(tmp.resolve("dst"));
        // A file where the source has a directory: the engine leaves it and fails that entry.
        Files.writeString(dst.resolve("sub"), "not a directory\n");
        Path report = tmp.resolve("report.json");

        Launch run = launch("copy", "--master", "local[2]", "--report", report.toString(), src + "/", dst.toString());

        assertEquals(1, run.exitCode(), run.describe());
        assertTrue(run.err().contains("spark-dcp: failed: sub: mkdirat EEXIST: "), run.describe());
        JsonNode json = new ObjectMapper().readTree(report.toFile());
        assertEquals(1, json.get("exit_code").asInt());
        assertTrue(json.get("failed").asLong() >= 1, json.toString());
        assertTrue(hasFailure(json, "sub", "mkdirat"), json.toString());
        assertEquals("not a directory\n", Files.readString(dst.resolve("sub")));
        assertEquals("alpha\n", Files.readString(dst.resolve("a.txt")));
        assertEquals("gamma\n", Files.readString(dst.resolve("other/c.txt")));
        assertEquals(Path.of("a.txt"), Files.readSymbolicLink(dst.resolve("link")));
    }

    private static boolean hasFailure(JsonNode report, String path, String op) {
        for (JsonNode f : report.get("failures")) {
            if (f.get("path").asText().equals(path) && f.get("op").asText().equals(op)) return true;
        }
        return false;
    }

    @Test
    void versionComesFromTheBuiltJar() throws Exception {
        Launch run = launch("--version");
        assertEquals(0, run.exitCode(), run.describe());
        // On the full class path the Spark that runs is the build's.
        assertTrue(run.out().startsWith("spark-dcp " + pom("<artifactId>spark-dcp-parent</artifactId>\\s*<version>([^<]+)</version>")
                + "\nSpark " + pom("<spark\\.version>([^<]+)</spark\\.version>") + ", Java "), run.describe());
    }

    /** A subcommand's --version runs on the launcher's short class path, without Spark's jars: it names the Spark built against. */
    @Test
    void versionOnTheShortClassPathNamesTheSparkBuiltAgainst() throws Exception {
        Launch run = launch("copy", "--version");
        assertEquals(0, run.exitCode(), run.describe());
        assertTrue(run.out().startsWith("spark-dcp " + pom("<artifactId>spark-dcp-parent</artifactId>\\s*<version>([^<]+)</version>")
                + "\nSpark " + pom("<spark\\.version>([^<]+)</spark\\.version>") + " (built against; not on this class path), Java "),
                run.describe());
    }

    private static String pom(String regex) throws IOException {
        Matcher m = Pattern.compile(regex).matcher(Files.readString(PROJECT.resolve("pom.xml")));
        assertTrue(m.find(), "pom.xml has no " + regex);
        return m.group(1);
    }

    @Test
    void launcherPassesThePomsModuleFlags() throws IOException {
        Matcher m = Pattern.compile("<spark\\.module\\.flags>([^<]*)</spark\\.module\\.flags>")
                .matcher(Files.readString(PROJECT.resolve("pom.xml")));
        assertTrue(m.find(), "pom.xml has no spark.module.flags");
        List<String> launcherLines = Files.readAllLines(LAUNCHER).stream().map(String::strip).toList();
        for (String flag : m.group(1).strip().split("\\s+")) assertTrue(launcherLines.contains(flag), flag);
    }
}

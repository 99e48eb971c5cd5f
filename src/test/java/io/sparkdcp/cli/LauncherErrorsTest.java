package io.sparkdcp.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a user sees when a run cannot start or stops, from submit-scripts/spark-dcp run as a process:
 * one {@code spark-dcp: } line, never a stack trace without {@code --verbose}; exit 2 and no DST
 * when nothing could start, exit 1 when a started run stopped.
 */
class LauncherErrorsTest {
    private static final Path LAUNCHER = Path.of("").toAbsolutePath().resolve("submit-scripts/spark-dcp");
    private static final long TIMEOUT_MINUTES = 5;

    @TempDir
    Path tmp;

    private record Launch(int exitCode, List<String> err) {
        String describe() {
            return "exit " + exitCode + ", stderr:\n" + String.join("\n", err);
        }
    }

    /**
     * Runs the launcher, reading stderr line by line; {@code onLine} sees each line as it comes, with the process.
     */
    private Launch launch(Map<String, String> env, LineWatcher onLine, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(LAUNCHER.toString()));
        command.addAll(List.of(args));
        return run(command, env, onLine);
    }

    private Launch run(List<String> command, Map<String, String> env, LineWatcher onLine) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(tmp.resolve("stdout.txt").toFile());
        builder.environment().putAll(env);
        Process process = builder.start();
        List<String> lines = new ArrayList<>();
        try (BufferedReader err = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = err.readLine()) != null; ) {
                lines.add(line);
                onLine.seen(line, process);
            }
        }
        boolean finished = process.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES);
        if (!finished) process.destroyForcibly().waitFor();
        assertTrue(finished, "the launcher ran more than " + TIMEOUT_MINUTES + " minutes");
        return new Launch(process.exitValue(), lines);
    }

    private interface LineWatcher {
        void seen(String line, Process process) throws Exception;
    }

    private Path source(int dirs, int filesPerDir) throws IOException {
        Path src = Files.createDirectories(tmp.resolve("src"));
        for (int d = 0; d < dirs; d++) {
            Path dir = Files.createDirectory(src.resolve("d" + d));
            for (int f = 0; f < filesPerDir; f++) Files.writeString(dir.resolve("f" + f), "file " + f + "\n");
        }
        return src;
    }

    private void assertRefusedInOneLine(Launch run, String expected, Path dst) {
        assertEquals(2, run.exitCode(), run.describe());
        assertEquals(1, run.err().size(), run.describe());
        assertTrue(run.err().get(0).startsWith("spark-dcp: ") && run.err().get(0).contains(expected), run.describe());
        assertFalse(Files.exists(dst), "DST was created");
    }

    /** A clone never built, on a machine without Maven: one line that says how to get a runnable spark-dcp, nothing written. */
    @Test
    void aCloneWithoutABuildAndWithoutMavenSaysHowToGetTheDistribution() throws Exception {
        Path clone = Files.createDirectories(tmp.resolve("clone/submit-scripts"));
        Files.copy(LAUNCHER, clone.resolve("spark-dcp"), java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
        Path bin = Files.createDirectories(tmp.resolve("bin")); // a PATH with bash only: no mvn
        Files.createSymbolicLink(bin.resolve("bash"), Path.of("/bin/bash"));
        Path dst = tmp.resolve("dst");
        Launch run = run(List.of(clone.resolve("spark-dcp").toString(), "copy", source(1, 1) + "/", dst.toString()),
                Map.of("PATH", bin.toString()), (line, p) -> {});
        assertRefusedInOneLine(run, "has no build (" + tmp.resolve("clone/target/spark-dcp.jar")
                + ") and there is no Maven (mvn) on PATH to build it: install Maven, or build the distribution", dst);
        assertTrue(run.err().get(0).endsWith("(README.md, Install)"), run.describe());
        assertFalse(Files.exists(tmp.resolve("clone/target")), "the launcher wrote into the clone");
    }

    /**
     * Bytes that are not UTF-8 reach the JVM as U+FFFD; copy, sync and compare take them from the command
     * line (ByteArgumentsTest), the other subcommands refuse them in one line rather than take another name.
     */
    @Test
    void anArgumentThatIsNotUtf8IsRefusedInOneLineByTheBench() throws Exception {
        String script = "exec \"$1\" bench --src \"$2/n$(printf '\\351')w\"";
        Launch run = run(List.of("bash", "-c", script, "-", LAUNCHER.toString(), tmp.toString()), Map.of(), (line, p) -> {});
        assertEquals(2, run.exitCode(), run.describe());
        assertEquals(List.of("spark-dcp: argument " + tmp + "/n\\xe9w is not UTF-8, which only copy, sync and compare take"),
                run.err().stream().filter(line -> !line.startsWith("spark-dcp: building ")).toList(), run.describe());
    }

    @Test
    void tooManyWalkThreadsAreRefusedBeforeDstIsCreated() throws Exception {
        Path dst = tmp.resolve("dst");
        Launch run = launch(Map.of(), (line, p) -> {}, "copy", "--walk-threads", "100000", source(1, 1).toString(), dst.toString());
        assertRefusedInOneLine(run, "Invalid value for option '--walk-threads': must be from 1 to 1024, not 100000", dst);
    }

    @Test
    void aMasterSparkSubmitWouldRefuseIsRefusedByTheLauncherInOneLine() throws Exception {
        Path dst = tmp.resolve("dst");
        Launch run = launch(Map.of(), (line, p) -> {}, "copy", "--master", "garbage", source(1, 1).toString(), dst.toString());
        assertRefusedInOneLine(run, "'garbage' is not a Spark master", dst);
    }

    @Test
    void anEmptyMasterIsRefusedInOneLine() throws Exception {
        Path dst = tmp.resolve("dst");
        Launch run = launch(Map.of(), (line, p) -> {}, "sync", "--master", "", source(1, 1).toString(), dst.toString());
        assertRefusedInOneLine(run, "'' is not a Spark master", dst);
    }

    /** A driver address this host does not have (TEST-NET-3): Spark's driver cannot bind, so Spark cannot start. */
    @Test
    void aSparkThatCannotStartIsExitTwoInOneLine() throws Exception {
        Path dst = tmp.resolve("dst");
        Launch run = launch(Map.of("SPARK_LOCAL_IP", "203.0.113.7"), (line, p) -> {}, "copy", "--master", "local[2]",
                source(1, 1).toString(), dst.toString());
        assertRefusedInOneLine(run, "spark-dcp: cannot start Spark: BindException: ", dst);
    }

    /** The source root moved away after the walk: every task that opens it fails, and the run stops. */
    @Test
    void aRunThatStopsIsOneLineWithoutVerboseAndAStackTraceWithIt() throws Exception {
        Path src = source(40, 50);
        Launch quiet = moveSourceAwayAfterTheWalk(src, tmp.resolve("dst"));
        assertEquals(1, quiet.exitCode(), quiet.describe());
        List<String> stopped = quiet.err().stream().filter(l -> l.contains("stopped")).toList();
        assertEquals(List.of("spark-dcp: the run stopped: RootChangedException: source " + src + " cannot be opened as the "
                + "directory the run started with (ENOENT: No such file or directory); nothing written"), stopped, quiet.describe());
        assertTrue(quiet.err().stream().allMatch(l -> l.startsWith("spark-dcp: ")), quiet.describe());

        Files.move(tmp.resolve("src.moved"), src);
        Launch verbose = moveSourceAwayAfterTheWalk(src, tmp.resolve("dst2"), "--verbose");
        assertEquals(1, verbose.exitCode(), verbose.describe());
        assertTrue(verbose.err().stream().anyMatch(l -> l.startsWith("\tat io.sparkdcp.")), "--verbose shows the trace");
    }

    /** Stops the JVM when the walk's summary line comes, moves SRC away, and lets it go on. */
    private Launch moveSourceAwayAfterTheWalk(Path src, Path dst, String... extra) throws Exception {
        List<String> args = new ArrayList<>(List.of("copy", "--master", "local[2]"));
        args.addAll(List.of(extra));
        args.addAll(List.of(src + "/", dst.toString()));
        return launch(Map.of(), (line, process) -> {
            if (!line.startsWith("spark-dcp: listed ")) return;
            signal("STOP", process);
            Files.move(src, tmp.resolve("src.moved"));
            signal("CONT", process);
        }, args.toArray(String[]::new));
    }

    private static void signal(String name, Process process) throws Exception {
        assertEquals(0, new ProcessBuilder("kill", "-" + name, String.valueOf(process.pid())).start().waitFor());
    }
}

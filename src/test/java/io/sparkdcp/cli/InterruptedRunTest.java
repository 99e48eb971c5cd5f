package io.sparkdcp.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkdcp.testing.AppJars;
import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.TimedProcess;
import io.sparkdcp.testing.TreeComparator;
import io.sparkdcp.testing.TreeFiles;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SIGTERM, SIGINT or SIGHUP sent to the launcher's process in the middle of a copy (slowed by --max-ops)
 * ends it with one line and exit 20, its --report saying "interrupted": true, on threads and on Spark;
 * the copy run again completes DST exactly. Before, the JVM's default ended it with exit 143, no line
 * and no report.
 */
class InterruptedRunTest {
    private static final Path LAUNCHER = AppJars.PROJECT.resolve("submit-scripts/spark-dcp");
    /** A copy of the tree at this rate takes minutes: the signal finds it copying. */
    private static final String SLOW = "40";
    private static LoopMount mount;
    private static Path src;

    @BeforeAll
    static void build() throws Exception {
        LoopMount.requireRootAndXfs();
        AppJars.fromLauncherBuild();
        mount = LoopMount.create("interrupt", 300);
        src = Files.createDirectories(mount.dir().resolve("src"));
        TreeFiles.buildMany(src, 8, 100, 3000);
    }

    @AfterAll
    static void unmount() {
        if (mount != null) mount.close();
    }

    @ParameterizedTest
    @CsvSource({"TERM, threads", "INT, threads", "HUP, threads", "TERM, local[2]"})
    void aSignalEndsTheRunWithOneLineExit20AndAReportAndARerunCompletesIt(String signal, String where) throws Exception {
        String name = signal + "-" + where.replaceAll("\\W", "");
        Path dst = mount.dir().resolve("dst-" + name);
        Path report = mount.dir().resolve(name + ".json");
        Path output = mount.dir().resolve(name + ".out");
        List<String> args = new ArrayList<>(List.of("copy", "--max-ops", SLOW, "--report", report.toString()));
        if (!where.equals("threads")) args.addAll(List.of("--master", where));
        args.addAll(List.of(src + "/", dst.toString()));

        int told; // what the run printed before the signal
        Process run = launcher(args).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        try {
            awaitCopying(run, dst, output);
            told = Files.readString(output).length();
            Commands.run("kill", "-s", signal, String.valueOf(run.pid()));
            assertTrue(run.waitFor(60, TimeUnit.SECONDS), "ended within a minute of the signal:\n" + Files.readString(output));
        } finally {
            run.destroyForcibly().waitFor();
        }

        String printed = Files.readString(output);
        assertEquals(Main.EXIT_INTERRUPTED, run.exitValue(), printed);
        // spark-dcp's own lines since the signal (Spark's logs of a busy start, before it, may be there too).
        List<String> ours = printed.substring(told).lines().filter(l -> l.startsWith("spark-dcp: ")).toList();
        assertEquals(List.of("spark-dcp: interrupted by SIG" + signal + ": re-run to resume"), ours, printed);
        assertTrue(printed.endsWith("re-run to resume\n"), printed);
        assertFalse(printed.contains("the run stopped") || printed.contains("copied"), "no other ending, no summary:\n" + printed);
        JsonNode json = new ObjectMapper().readTree(report.toFile());
        assertTrue(json.get("interrupted").asBoolean(), json.toString());
        assertEquals("SIG" + signal, json.get("signal").asText());
        assertEquals(Main.EXIT_INTERRUPTED, json.get("exit_code").asInt());
        assertTrue(fileCount(dst) < fileCount(src), "the signal came before the copy was done");

        TimedProcess.Finished rerun = TimedProcess.run(launcher(List.of("copy", "--report", report.toString(), src + "/", dst.toString())),
                mount.dir().resolve(name + ".rerun.out"), 300);
        assertEquals(0, rerun.exitCode(), rerun.output());
        assertFalse(new ObjectMapper().readTree(report.toFile()).get("interrupted").asBoolean());
        TreeComparator.assertSameTree(src, dst);
    }

    /**
     * SIGTERM at the first moments of a run: as soon as the launcher's bash catches it (its first instruction), as soon
     * as the process has become the JVM, and while the JVM starts. Each ends with the line, exit 20, and a --report
     * that says "interrupted": true where an older run's report was. Before, the JVM's default ended most of them with
     * exit 143, no line, and the older report left in place.
     */
    @ParameterizedTest
    @CsvSource({"launcher, 0", "jvm, 0", "jvm, 50", "jvm, 150", "jvm, 400", "jvm, 1000"})
    void aSignalInTheFirstMomentsEndsTheRunWithItsLineExit20AndNoOlderReport(String moment, long afterMillis) throws Exception {
        String name = "early-" + moment + "-" + afterMillis;
        Path dst = mount.dir().resolve("dst-" + name);
        Path report = mount.dir().resolve(name + ".json");
        Path output = mount.dir().resolve(name + ".out");
        Files.writeString(report, "{\"interrupted\": false, \"exit_code\": 0}\n"); // an older run's
        Process run = launcher(List.of("copy", "--max-ops", SLOW, "--report", report.toString(), src + "/", dst.toString()))
                .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        try {
            awaitMoment(run, moment);
            if (afterMillis > 0) Thread.sleep(afterMillis);
            // SIGTERM from this JVM at once (Process.destroy), not through a forked kill(1): on a loaded machine the
            // fork took long enough for the "launcher" moment to become the instant of its exec, which no trap covers.
            run.destroy();
            assertTrue(run.waitFor(60, TimeUnit.SECONDS), "ended within a minute of the signal:\n" + Files.readString(output));
        } finally {
            run.destroyForcibly().waitFor();
        }
        String printed = Files.readString(output);
        assertEquals(Main.EXIT_INTERRUPTED, run.exitValue(), printed);
        assertEquals(List.of("spark-dcp: interrupted by SIGTERM: re-run to resume"),
                printed.lines().filter(l -> l.contains("interrupted")).toList(), printed);
        assertTrue(printed.endsWith("re-run to resume\n"), "the last line: " + printed);
        assertTrue(printed.lines().allMatch(l -> l.startsWith("spark-dcp: ")), "its own lines only (listed, the ending): " + printed);
        JsonNode json = new ObjectMapper().readTree(report.toFile());
        assertTrue(json.get("interrupted").asBoolean(), json.toString());
        assertEquals("SIGTERM", json.get("signal").asText(), json.toString());
    }

    /** Waits (busily: these moments last milliseconds) until the launcher's bash catches SIGTERM, or until it is the JVM. */
    private static void awaitMoment(Process run, String moment) throws Exception {
        Path proc = Path.of("/proc", String.valueOf(run.pid()));
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (System.nanoTime() < deadline && run.isAlive()) {
            try {
                if (moment.equals("jvm") ? Files.readSymbolicLink(proc.resolve("exe")).getFileName().toString().equals("java")
                        : catchesTerm(proc)) return;
            } catch (IOException e) { // between two programs: look again
            }
        }
        throw new AssertionError("the run never reached the moment " + moment);
    }

    /** Whether the process has a handler for SIGTERM (its SigCgt mask in /proc): bash's trap, once it ran. */
    private static boolean catchesTerm(Path proc) throws IOException {
        if (Files.readSymbolicLink(proc.resolve("exe")).getFileName().toString().equals("java")) return true;
        for (String line : Files.readAllLines(proc.resolve("status")))
            if (line.startsWith("SigCgt:")) return (Long.parseUnsignedLong(line.substring(7).strip(), 16) & (1L << 14)) != 0;
        return false;
    }

    /**
     * The launcher with the three signals' default handling, whatever this JVM was started with: a
     * process started in the background by a shell ignores SIGINT, and so would the run.
     */
    private static ProcessBuilder launcher(List<String> args) {
        List<String> command = new ArrayList<>(List.of("env", "--default-signal=INT,TERM,HUP", LAUNCHER.toString()));
        command.addAll(args);
        return new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    }

    /** Waits until the run has copied some of the files (the launcher has become the JVM, which copies). */
    private static void awaitCopying(Process run, Path dst, Path output) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (fileCount(dst) < 20) {
            if (!run.isAlive() || System.nanoTime() > deadline)
                throw new AssertionError("the copy never got going:\n" + Files.readString(output));
            Thread.sleep(100);
        }
    }

    private static long fileCount(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) return 0;
        try (Stream<Path> all = Files.walk(dir)) {
            return all.filter(Files::isRegularFile).count();
        } catch (java.io.UncheckedIOException e) { // an entry the copy was replacing: look again
            return fileCount(dir);
        }
    }
}

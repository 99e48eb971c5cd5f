package io.sparkdcp.cli;

import io.sparkdcp.testing.AppJars;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The launcher's scan of the command line: every spelling of an option picocli reads the same way gives the same
 * class path, and a copy on the embedded Spark gets the JVM options of a copy on threads. It is observed through a
 * JAVA_HOME whose java only prints its arguments: no JVM starts, so each case costs a bash run, and the class path
 * the launcher chose is the one after -cp.
 */
class LauncherOptionScanTest {
    private static final Path LAUNCHER = AppJars.PROJECT.resolve("submit-scripts/spark-dcp");
    private static final long TIMEOUT_SECONDS = 60;

    @TempDir
    static Path tmp;
    private static Path fakeJdk;

    @BeforeAll
    static void fakeJdk() throws Exception {
        AppJars.fromLauncherBuild(); // a launch must not build
        fakeJdk = Files.createDirectories(tmp.resolve("jdk/bin")).getParent();
        Files.writeString(fakeJdk.resolve("release"), "JAVA_VERSION=\"17.0.15\"\n");
        Path java = Files.writeString(fakeJdk.resolve("bin/java"), "#!/bin/sh\nprintf '%s\\n' \"$@\"\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** Spellings of runs on threads: none needs a jar of Spark's. */
    static Stream<List<String>> shortPath() {
        return Stream.of(
                List.of("-v"),
                List.of("--verbose"), // a run on threads prints -v's step table without log4j
                List.of("--verbose=true"),
                List.of("-av"), // bundled short options
                List.of("-nv"),
                List.of("-a", "-r", "-v"),
                // an option's value that looks like an option is a value
                List.of("--exclude", "--state"),
                List.of("--exclude=--state"),
                List.of("--include", "--listing"),
                List.of("--files-from", "--save-listing"),
                List.of("--report", "--log"),
                List.of("--exclude", "--master"),
                List.of("--progress", "5", "--exclude", "--state=x"),
                List.of("--progress", "-v"),
                // a ledger, an item log or a saved listing in a local place: read and written without Hadoop
                List.of("--state", "DIR"),
                List.of("--state=/abs/DIR"),
                List.of("--log", "file:/abs/DIR"),
                List.of("--log=file:///abs/DIR"),
                List.of("--listing", "FILE:/abs/DIR"),
                List.of("--save-listing", "relative/with:colon"),
                List.of("-an", "--state=DIR", "--log", "./x:y", "--listing", "DIR"));
    }

    /**
     * Spellings of runs that need Spark's jars: each of FullClassPath.OPTIONS, as OPT VALUE and OPT=VALUE, a place of
     * another scheme than file: for the options that take one.
     */
    static Stream<List<String>> fullPath() {
        List<List<String>> cases = new ArrayList<>();
        cases.add(List.of("--state", "s3a://bucket/DIR"));
        cases.add(List.of("--log=webhdfs://namenode/DIR"));
        cases.add(List.of("--state", "DIR", "--log", "hdfs:/DIR"));
        for (String option : FullClassPath.OPTIONS) {
            String value = option.equals("--master") ? "local[2]" : "hdfs://namenode:8020/DIR";
            cases.add(List.of(option, value));
            cases.add(List.of(option + "=" + value));
            cases.add(List.of("--exclude", "x", option, value));
            cases.add(List.of("-an", option + "=" + value));
        }
        return cases.stream();
    }

    @ParameterizedTest
    @MethodSource("shortPath")
    void runsOnTheShortClassPath(List<String> options) throws Exception {
        assertEquals("short", classPath(options), options.toString());
    }

    @ParameterizedTest
    @MethodSource("fullPath")
    void runsOnTheFullClassPath(List<String> options) throws Exception {
        assertEquals("full", classPath(options), options.toString());
    }

    /** C1 only and the parallel collector, as on threads: C2 and G1 cost a short run more than they give back. */
    @ParameterizedTest
    @MethodSource("shortRunJvms")
    void aCopyOnTheEmbeddedSparkGetsTheThreadsJitAndCollector(List<String> options) throws Exception {
        List<String> args = javaArguments(options);
        List<String> jvmOptions = args.subList(0, args.indexOf("-cp"));
        for (String flag : List.of("-XX:TieredStopAtLevel=1", "-XX:+UseParallelGC", "-Xmn32m", "-Xlog:all=warning:stderr"))
            assertTrue(jvmOptions.contains(flag), flag + " in " + jvmOptions);
        assertTrue(jvmOptions.stream().noneMatch(o -> o.startsWith("-Dspark.ui")), "a user's spark.ui.enabled is kept: " + jvmOptions);
    }

    static Stream<List<String>> shortRunJvms() {
        return Stream.of(List.of("--master", "local[2]"), List.of("--master=local"), List.of("--state", "DIR"), List.of());
    }

    /** The launcher's list of long options that take a value is picocli's, for copy, sync and compare. */
    @Test
    void theLaunchersValueOptionsArePicoclis() throws IOException {
        Matcher list = Pattern.compile("(?m)^value_options=\"([^\"]*)\"").matcher(Files.readString(LAUNCHER));
        assertTrue(list.find(), "value_options= in " + LAUNCHER);
        Set<String> launchers = new TreeSet<>(Arrays.asList(list.group(1).strip().split("\\s+")));
        Set<String> picoclis = new TreeSet<>();
        CommandLine main = Main.commandLine();
        for (String command : List.of("copy", "sync", "compare"))
            for (OptionSpec option : main.getSubcommands().get(command).getCommandSpec().options()) {
                if (Arrays.stream(option.names()).anyMatch(name -> name.matches("-[^-]")))
                    assertEquals(0, option.arity().min(), "a short option that takes a value (the launcher skips bundles whole): " + option.longestName());
                if (option.arity().min() >= 1) picoclis.add(option.longestName());
            }
        assertEquals(picoclis, launchers);
    }

    /**
     * The class path the launcher gave java for {@code copy OPTIONS SRC DST}: "short" (the app jar and Jackson), "full"
     * (the runtime jar and Spark's), else its jars' names.
     */
    private static String classPath(List<String> options) throws IOException, InterruptedException {
        List<String> args = javaArguments(options);
        int cp = args.indexOf("-cp");
        assertTrue(cp >= 0, "java's arguments: " + args);
        List<String> jars = new ArrayList<>();
        for (String jar : args.get(cp + 1).split(":"))
            jars.add(Path.of(jar).getFileName().toString().replaceFirst("(_[0-9.]+)?-[0-9][^/]*\\.jar$", ""));
        jars = jars.stream().sorted().toList();
        if (jars.equals(List.of("jackson-annotations", "jackson-core", "jackson-databind", "spark-dcp-app.jar"))) return "short";
        return jars.contains("spark-dcp.jar") && jars.contains("spark-core") ? "full" : jars.toString();
    }

    /** What the launcher gave java for {@code copy OPTIONS SRC DST}. */
    private static List<String> javaArguments(List<String> options) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(LAUNCHER.toString(), "copy"));
        command.addAll(options);
        command.addAll(List.of(tmp.resolve("src/").toString(), tmp.resolve("dst").toString()));
        ProcessBuilder builder = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        builder.environment().put("JAVA_HOME", fakeJdk.toString());
        builder.environment().put("SPARK_DCP_CACHE_DIR", "/dev/null/no-cache"); // no class archive maker
        Path out = Files.createTempFile(tmp, "stdout", ".txt");
        Path err = Files.createTempFile(tmp, "stderr", ".txt");
        Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertTrue(process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS), command.toString());
        assertEquals(0, process.exitValue(), Files.readString(err));
        return Files.readAllLines(out);
    }
}

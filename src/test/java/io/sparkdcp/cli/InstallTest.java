package io.sparkdcp.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkdcp.testing.AppJars;
import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.TimedProcess;
import io.sparkdcp.testing.TreeComparator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The distribution as an administrator installs it: the tarball {@code mvn package} makes, unpacked as
 * root under a fresh prefix, and run by a user who is not root, from any directory, on trees that user
 * owns. Nothing of the builder's (~/.m2) is on its class path, and nothing is written into the install.
 */
class InstallTest {
    private static final String USER = "spark-dcp-install-test";
    private static final long TIMEOUT_SECONDS = 300;
    private static final AtomicInteger RUNS = new AtomicInteger();

    private static LoopMount mount;
    /** The unpacked distribution, owned by root, mode 755. */
    private static Path prefix;
    /** The user's directory (home, trees, the log of every java the launcher ran). */
    private static Path user;
    /** A JDK whose java logs its arguments before it runs the real one. */
    private static Path loggingJdk;
    private static Path installedAt;

    @BeforeAll
    static void install() throws Exception {
        LoopMount.requireRootAndXfs();
        Path tarball = builtTarball();
        if (Commands.tryRun("id", "-u", USER).exitCode() != 0) {
            Commands.run("useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", USER);
        }
        mount = LoopMount.create("install", 1200);
        Path opt = Files.createDirectories(mount.dir().resolve("opt"));
        Commands.run("chmod", "755", mount.dir().toString(), opt.toString());
        Commands.run("tar", "-xf", tarball.toString(), "-C", opt.toString());
        String name = tarball.getFileName().toString().replaceFirst("\\.tar$", "");
        prefix = opt.resolve(name);
        user = Files.createDirectories(mount.dir().resolve("user"));
        loggingJdk = Files.createDirectories(user.resolve("jdk/bin"));
        Path javaHome = Path.of(System.getProperty("java.home"));
        Files.copy(javaHome.resolve("release"), user.resolve("jdk/release"));
        Files.writeString(loggingJdk.resolve("java"), "#!/bin/bash\nprintf '%s\\n' \"$@\" >>'" + user.resolve("java-arguments.log") + "'\n"
                + "exec '" + javaHome.resolve("bin/java") + "' \"$@\"\n");
        Commands.run("chmod", "755", loggingJdk.resolve("java").toString());
        loggingJdk = user.resolve("jdk");
        Files.createDirectories(user.resolve("home"));
        Files.createDirectories(user.resolve("src/dir/sub"));
        Files.writeString(user.resolve("src/dir/file"), "data\n");
        Files.write(user.resolve("src/dir/sub/large"), new byte[3 << 20]);
        Files.createSymbolicLink(user.resolve("src/link"), Path.of("dir/file"));
        Commands.run("chown", "-R", USER + ":" + USER, user.toString());
        // An unwritable home: the user's cache cannot be made there.
        Files.createDirectories(mount.dir().resolve("root-home"));
        Commands.run("chmod", "755", mount.dir().resolve("root-home").toString());
        // Dated back, so that any change a run makes shows as newer than the mark.
        Commands.run("find", prefix.toString(), "-exec", "touch", "-h", "-d", "2020-01-01", "{}", "+");
        installedAt = Files.createFile(mount.dir().resolve("installed-at"));
        Commands.run("touch", "-d", "2021-01-01", installedAt.toString());
    }

    /**
     * target/spark-dcp-VERSION.tar as {@code mvn package} makes it: the launcher's build (which leaves the
     * manual and the distribution out), then those two alone when the tarball is older than the jars.
     */
    private static Path builtTarball() throws Exception {
        AppJars jars = AppJars.fromLauncherBuild();
        Path tarball = AppJars.PROJECT.resolve("target/" + new VersionProvider().getVersion()[0].replace(' ', '-') + ".tar");
        if (!Files.exists(tarball) || Files.getLastModifiedTime(tarball).compareTo(Files.getLastModifiedTime(jars.appJar())) < 0) {
            ProcessBuilder build = new ProcessBuilder("flock", "target/.launcher-build.lock",
                    "mvn", "-q", "-B", "-f", "product-pom.xml", "antrun:run@manual", "assembly:single@dist").directory(AppJars.PROJECT.toFile());
            TimedProcess.Finished built = TimedProcess.run(build, Files.createTempFile("install-build", ".log"), 900);
            assertEquals(0, built.exitCode(), built.output());
        }
        return tarball;
    }

    @AfterAll
    static void uninstall() throws Exception {
        if (mount == null) return;
        // The class archive is made in the background, after the copy that started it: let it finish.
        for (int i = 0; i < 600 && !Commands.tryRun("pgrep", "-u", USER).stdout().isBlank(); i++) Thread.sleep(200);
        mount.close();
    }

    private record Run(int exitCode, String output) {}

    /** The installed launcher (or another installed script) run as the user, from the user's directory. */
    private static Run asUser(Path home, Map<String, String> env, Path script, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("setpriv", "--reuid=" + USER, "--regid=" + USER, "--init-groups", "--",
                script.toString()));
        command.addAll(Arrays.asList(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(user.toFile());
        builder.environment().keySet().removeIf(k -> k.startsWith("SPARK_") || k.startsWith("XDG_") || k.equals("JAVA_HOME"));
        builder.environment().put("HOME", home.toString());
        builder.environment().put("JAVA_HOME", loggingJdk.toString());
        builder.environment().putAll(env);
        Path output = Files.createTempFile("install-run", ".txt");
        try {
            TimedProcess.Finished run = TimedProcess.run(builder, output, TIMEOUT_SECONDS);
            return new Run(run.exitCode(), run.output());
        } finally {
            Files.delete(output);
        }
    }

    private static Run launcher(Path home, String... args) throws Exception {
        return asUser(home, Map.of(), prefix.resolve("bin/spark-dcp"), args);
    }

    private static Path newDestination() {
        return user.resolve("dst" + RUNS.incrementAndGet());
    }

    /** What every run from the install must leave true: no file of the install changed, no class path out of it. */
    private static void assertRanFromTheInstallAlone() throws IOException {
        assertEquals("", Commands.run("find", prefix.toString(), "-newer", installedAt.toString()), "written into the install");
        List<String> arguments = Files.readAllLines(user.resolve("java-arguments.log"));
        for (int i = 0; i < arguments.size(); i++) {
            String argument = arguments.get(i);
            assertFalse(argument.contains(".m2"), "a class path into ~/.m2: " + argument);
            if ((argument.equals("-cp") || argument.equals("-classpath")) && i + 1 < arguments.size()) {
                for (String entry : arguments.get(i + 1).split(":")) {
                    assertTrue(entry.startsWith(prefix + "/"), "a class path entry outside the install: " + entry);
                }
            }
        }
    }

    @Test
    void copiesOnThreads() throws Exception {
        Path dst = newDestination();
        Run run = launcher(user.resolve("home"), "copy", user.resolve("src") + "/", dst.toString());
        assertEquals(0, run.exitCode(), run.output());
        TreeComparator.assertSameTree(user.resolve("src"), dst);
        assertRanFromTheInstallAlone();
    }

    @Test
    void writesAReport() throws Exception {
        Path dst = newDestination();
        Path report = user.resolve("report" + RUNS.get() + ".json");
        Run run = launcher(user.resolve("home"), "copy", "--report", report.toString(), user.resolve("src") + "/", dst.toString());
        assertEquals(0, run.exitCode(), run.output());
        TreeComparator.assertSameTree(user.resolve("src"), dst);
        assertTrue(new ObjectMapper().readTree(report.toFile()).isObject(), "the report is JSON");
        assertRanFromTheInstallAlone();
    }

    @Test
    void copiesOnLocalSpark() throws Exception {
        Path dst = newDestination();
        Run run = launcher(user.resolve("home"), "copy", "--master", "local[2]", user.resolve("src") + "/", dst.toString());
        assertEquals(0, run.exitCode(), run.output());
        TreeComparator.assertSameTree(user.resolve("src"), dst);
        assertRanFromTheInstallAlone();
    }

    /** No cache can be made in an unwritable home: the copy runs without a class archive, and says nothing of it. */
    @Test
    void copiesWithAHomeItCannotWrite() throws Exception {
        Path dst = newDestination();
        Run run = launcher(mount.dir().resolve("root-home"), "copy", user.resolve("src") + "/", dst.toString());
        assertEquals(0, run.exitCode(), run.output());
        TreeComparator.assertSameTree(user.resolve("src"), dst);
        assertTrue(run.output().lines().noneMatch(l -> l.contains("cache") || l.contains("ermission")), run.output());
        assertRanFromTheInstallAlone();
    }

    /** The cluster scripts' Spark without SPARK_HOME: spark-submit from the install's lib/, here on local[2]. */
    @Test
    void submitsWithTheInstallsOwnSpark() throws Exception {
        Path dst = newDestination();
        Run run = asUser(user.resolve("home"), Map.of(), prefix.resolve("submit-scripts/cluster/spark-submit-from-build"),
                "--master", "local[2]", "--class", "io.sparkdcp.cli.Main", "--properties-file", prefix.resolve("conf/spark-defaults.conf").toString(),
                prefix.resolve("lib/spark-dcp-app.jar").toString(), "copy", user.resolve("src") + "/", dst.toString());
        assertEquals(0, run.exitCode(), run.output());
        TreeComparator.assertSameTree(user.resolve("src"), dst);
        assertEquals("", Commands.run("find", prefix.toString(), "-newer", installedAt.toString()), "written into the install");
    }

    @Test
    void installsTheManPageAndTheCompletion() throws Exception {
        assertTrue(Files.isRegularFile(prefix.resolve("share/man/man1/spark-dcp.1")));
        assertEquals(0, Commands.tryRun("bash", "-n", prefix.resolve("share/bash-completion/completions/spark-dcp").toString()).exitCode());
        assertEquals(Files.readString(AppJars.PROJECT.resolve("docs/options.md")), Files.readString(prefix.resolve("docs/options.md")));
    }

    // ---- runs that cannot start: one line, exit 2 ----

    private static void assertRefusedInOneLine(Run run, String expected) {
        assertEquals(2, run.exitCode(), run.output());
        List<String> lines = run.output().lines().toList();
        assertEquals(1, lines.size(), run.output());
        assertTrue(lines.get(0).startsWith("spark-dcp: ") && lines.get(0).contains(expected), run.output());
    }

    @Test
    void noJavaIsOneLine() throws Exception {
        Run run = asUser(user.resolve("home"), Map.of("JAVA_HOME", user.resolve("no-jdk").toString()), prefix.resolve("bin/spark-dcp"),
                "copy", user.resolve("src") + "/", newDestination().toString());
        assertRefusedInOneLine(run, "no java at " + user.resolve("no-jdk/bin/java"));
    }

    @Test
    void aJavaOlderThan17IsOneLine() throws Exception {
        Path old = Files.createDirectories(user.resolve("old-jdk/bin"));
        Files.copy(loggingJdk.resolve("bin/java"), old.resolve("java"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Files.writeString(user.resolve("old-jdk/release"), "JAVA_VERSION=\"11.0.2\"\n");
        Commands.run("chown", "-R", USER, user.resolve("old-jdk").toString());
        for (String master : List.of("", "local[2]")) {
            List<String> args = new ArrayList<>(List.of("copy"));
            if (!master.isEmpty()) args.addAll(List.of("--master", master));
            args.addAll(List.of(user.resolve("src") + "/", newDestination().toString()));
            Run run = asUser(user.resolve("home"), Map.of("JAVA_HOME", user.resolve("old-jdk").toString()), prefix.resolve("bin/spark-dcp"),
                    args.toArray(String[]::new));
            assertRefusedInOneLine(run, "is Java 11: spark-dcp needs Java 17 or later");
        }
    }

    /** An install with one jar gone, or with a lib/ only root may read (hard links: the real install stays as it is). */
    @Test
    void aMissingJarOrAnUnreadableLibIsOneLine() throws Exception {
        Path broken = mount.dir().resolve("opt/broken");
        Commands.run("cp", "-al", prefix.toString(), broken.toString());
        try (Stream<Path> jackson = Files.list(broken.resolve("lib"))) {
            Files.delete(jackson.filter(p -> p.getFileName().toString().startsWith("jackson-databind-")).findFirst().orElseThrow());
        }
        Run run = asUser(user.resolve("home"), Map.of(), broken.resolve("bin/spark-dcp"), "copy", user.resolve("src") + "/", newDestination().toString());
        assertRefusedInOneLine(run, "jackson-databind");

        Files.delete(broken.resolve("lib/spark-dcp-app.jar"));
        run = asUser(user.resolve("home"), Map.of(), broken.resolve("bin/spark-dcp"), "copy", "--master", "local[2]",
                user.resolve("src") + "/", newDestination().toString());
        assertRefusedInOneLine(run, "cannot read " + broken.resolve("lib/spark-dcp-app.jar"));

        Commands.run("chmod", "700", broken.resolve("lib").toString());
        run = asUser(user.resolve("home"), Map.of(), broken.resolve("bin/spark-dcp"), "copy", user.resolve("src") + "/", newDestination().toString());
        assertRefusedInOneLine(run, "cannot read " + broken.resolve("lib"));
    }
}

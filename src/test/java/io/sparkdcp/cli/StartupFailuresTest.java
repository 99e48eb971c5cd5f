package io.sparkdcp.cli;

import io.sparkdcp.testing.AppJars;
import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.TimedProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A run whose JVM cannot start as it is set up, as a user who is not root, from a directory that user cannot write,
 * with /tmp replaced (in a mount namespace of the run's own) by one mounted noexec or that the user cannot write:
 * jffi, which binds libc, writes a small library to java.io.tmpdir and maps it. The run then uses a private directory
 * of the user's cache; where there is none either, it is one spark-dcp: line naming what to set, exit 2, and no DST.
 * Before, a UnsatisfiedLinkError of some 70 lines and exit 1.
 */
class StartupFailuresTest {
    private static final String USER = "spark-dcp-startup-test";
    private static final AtomicInteger RUNS = new AtomicInteger();
    /** Where the run's mount namespace shows the test's file system (an empty directory of the host's, made for it). */
    private static final String SEEN = "/var/tmp/spark-dcp-startup-view-" + ProcessHandle.current().pid();
    private static LoopMount mount;
    /** An installed layout (bin/, lib/ with the thin jar and Jackson), readable by every user. */
    private static Path install;
    /** Owned by the user: its home and the trees. */
    private static Path user;

    @BeforeAll
    static void setUp() throws Exception {
        LoopMount.requireRootAndXfs();
        AppJars jars = AppJars.fromLauncherBuild();
        if (Commands.tryRun("id", "-u", USER).exitCode() != 0)
            Commands.run("useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", USER);
        mount = LoopMount.create("startup", 300);
        Files.createDirectories(Path.of(SEEN));
        Commands.run("chmod", "755", mount.dir().toString());
        install = Files.createDirectories(mount.dir().resolve("install"));
        Files.createDirectories(install.resolve("bin"));
        Path lib = Files.createDirectories(install.resolve("lib"));
        Files.copy(AppJars.PROJECT.resolve("submit-scripts/spark-dcp"), install.resolve("bin/spark-dcp"));
        Files.copy(jars.appJar(), lib.resolve("spark-dcp-app.jar"));
        for (String jar : jars.classpath().split(":"))
            if (Path.of(jar).getFileName().toString().matches("jackson-(core|databind|annotations)-.*\\.jar"))
                Files.copy(Path.of(jar), lib.resolve(Path.of(jar).getFileName()));
        Commands.run("chmod", "-R", "a+rX", install.toString());
        user = Files.createDirectories(mount.dir().resolve("user"));
        Files.createDirectories(user.resolve("home"));
        Files.createDirectories(user.resolve("src/dir"));
        Files.writeString(user.resolve("src/dir/file"), "data\n");
        Commands.run("chown", "-R", USER + ":" + USER, user.toString());
    }

    @AfterAll
    static void tearDown() throws Exception {
        if (mount == null) return;
        for (int i = 0; i < 300 && !Commands.tryRun("pgrep", "-u", USER).stdout().isBlank(); i++) Thread.sleep(200); // class archives in the making
        mount.close();
        Files.deleteIfExists(Path.of(SEEN));
    }

    private record Run(int exitCode, String output, Path dst) {}

    /** A copy as the user, from the install's directory (root's), with /tmp a fresh tmpfs mounted with {@code tmpOptions}. */
    private static Run copy(String tmpOptions, String home, String cacheDir) throws Exception {
        String name = "dst" + RUNS.incrementAndGet();
        // The test's file system lives under /tmp: the namespace shows it at SEEN before it covers /tmp.
        String script = "mount --rbind " + mount.dir() + " " + SEEN + " && mount -t tmpfs -o " + tmpOptions + " tmpfs /tmp && cd " + SEEN
                + "/install && exec setpriv --reuid=" + USER + " --regid=" + USER + " --clear-groups -- \"$@\"";
        ProcessBuilder builder = new ProcessBuilder(List.of("unshare", "--mount", "--propagation", "private", "bash", "-c", script, "-",
                SEEN + "/install/bin/spark-dcp", "copy", SEEN + "/user/src/", SEEN + "/user/" + name));
        Path dst = user.resolve(name);
        builder.environment().keySet().removeIf(k -> k.startsWith("SPARK_") || k.startsWith("XDG_") || k.startsWith("JAVA_TOOL"));
        builder.environment().put("HOME", home);
        if (cacheDir != null) builder.environment().put("SPARK_DCP_CACHE_DIR", cacheDir);
        TimedProcess.Finished run = TimedProcess.run(builder, Files.createTempFile("startup", ".txt"), 300);
        return new Run(run.exitCode(), run.output(), dst);
    }

    private static void assertCopied(Run run) throws Exception {
        assertEquals(0, run.exitCode(), run.output());
        assertEquals("data\n", Files.readString(run.dst().resolve("dir/file")));
        assertFalse(run.output().contains("Exception") || run.output().contains("Error"), run.output());
    }

    private static void assertOneLine(Run run, String expected) {
        assertEquals(2, run.exitCode(), run.output());
        assertEquals(List.of(expected), run.output().lines().toList(), run.output());
        assertFalse(Files.exists(run.dst()), "DST was created");
    }

    @Test
    void aTmpMountedNoexecIsPassedOverForTheUsersCache() throws Exception {
        assertCopied(copy("noexec,mode=1777", SEEN + "/user/home", null));
        assertTrue(Files.isDirectory(user.resolve("home/.cache/spark-dcp/native")), "the stub's private directory");
    }

    @Test
    void aTmpTheUserCannotWriteIsPassedOverForTheUsersCache() throws Exception {
        assertCopied(copy("mode=755", SEEN + "/user/home", null));
    }

    /** An unwritable HOME (so no cache: no class archive, no note of env's abilities) with a usable /tmp: the copy runs, silent. */
    @Test
    void anUnwritableHomeRunsWithoutItsCache() throws Exception {
        Run run = copy("mode=1777", "/nonexistent-home", null);
        assertCopied(run);
        assertTrue(run.output().lines().noneMatch(l -> l.startsWith("spark-dcp: ") && !l.startsWith("spark-dcp: listed ")), run.output());
    }

    private static final String NOWHERE = "spark-dcp: cannot load libc's calls: jffi could write its stub library nowhere it may be run "
            + "(java.io.tmpdir /tmp, the cache, the current directory: unwritable or mounted noexec); set SPARK_DCP_CACHE_DIR "
            + "(or java.io.tmpdir) to a directory you can write on a file system not mounted noexec";

    @Test
    void withoutAWritableHomeEitherItIsOneLineAndExit2() throws Exception {
        assertOneLine(copy("mode=755", "/nonexistent-home", null), NOWHERE);
    }

    @Test
    void aCacheDirectoryOnANoexecMountIsOneLineAndExit2() throws Exception {
        // The cache named is on /tmp itself: noexec too. (A class archive is not made there either: copies run without.)
        assertOneLine(copy("noexec,mode=1777", SEEN + "/user/home", "/tmp/cache"), NOWHERE);
    }
}

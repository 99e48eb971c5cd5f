package io.sparkdcp.cli;

import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.Jdks;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.TimedProcess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The launcher's class data sharing archive for copies on threads, with real launcher processes: made
 * on first use in the cache directory, in the background while that copy runs, mapped by later copies, made anew when the jar changes, and
 * never in the way of a copy (two first runs at once, a read-only cache). JDK 17's static archive
 * (JAVA_HOME set to it), and a JDK 25's AOT cache (JAVA_HOME set to that).
 */
class LauncherClassArchiveTest {
    private static final Path PROJECT = Path.of("").toAbsolutePath();
    private static final long TIMEOUT_SECONDS = 300;

    @TempDir
    Path tmp;

    /**
     * Every local run that finds no current archive starts a maker in the background (a --version too), which
     * writes in its cache after the launcher exits: the temporary directory is removed only once they are done.
     */
    @AfterEach
    void awaitTheMakers() throws IOException, InterruptedException {
        for (String cache : List.of("cache", "build-cache"))
            if (Files.isDirectory(tmp.resolve(cache))) archivesWhenMade(tmp.resolve(cache), "jsa", 0);
    }

    @Test
    void twoFirstCopiesAtOnceBothCopyAndLeaveOneArchiveThatTheNextCopyMaps() throws Exception {
        Path cache = tmp.resolve("cache");
        Path src = smallTree();
        List<Process> first = new ArrayList<>();
        for (int i = 0; i < 2; i++) first.add(start(PROJECT, cache, null, "copy", src + "/", tmp.resolve("dst" + i).toString()));
        for (int i = 0; i < 2; i++) {
            Process p = first.get(i);
            assertEquals(0, p.waitFor(), new String(p.getInputStream().readAllBytes()));
            assertEquals("beta\n", Files.readString(tmp.resolve("dst" + i + "/sub/b.txt")));
        }
        List<Path> archives = archivesWhenMade(cache, "jsa", 1);
        assertEquals(1, archives.size(), "one archive: " + archives);
        try (Stream<Path> left = Files.list(cache)) {
            assertEquals(List.of(), left.filter(p -> p.getFileName().toString().startsWith(".making")).toList(),
                    "no half-made archive is left");
        }

        FileTime made = Files.getLastModifiedTime(archives.get(0));
        assertMapsTheArchive(PROJECT, cache, src);
        assertStartsNoProcessButItsJvm(cache, src);
        assertEquals(made, Files.getLastModifiedTime(archives.get(0)), "a later copy uses the archive as it is");
    }

    /**
     * Every process the launcher starts costs 10-60 ms of a copy's fixed cost: a copy on threads whose
     * class archive is made starts none but the JVM it execs (through env, which blocks the signals first), with JAVA_HOME set or java found on PATH
     * (the launcher's own path, the build check, the JDK's version and the archive's name are bash's).
     */
    private void assertStartsNoProcessButItsJvm(Path cache, Path src) throws Exception {
        for (boolean javaHome : new boolean[]{true, false}) {
            Path trace = tmp.resolve("processes-" + javaHome + ".txt");
            Path dst = tmp.resolve("dst-traced-" + javaHome);
            ProcessBuilder builder = builder(PROJECT, cache, null, "copy", src + "/", dst.toString());
            builder.command().addAll(0, List.of("strace", "-f", "-qq", "-e", "trace=execve,fork,vfork,clone,clone3", "-o", trace.toString()));
            if (!javaHome) builder.environment().remove("JAVA_HOME");
            TimedProcess.Finished run = TimedProcess.run(builder, Files.createTempFile(tmp, "out", ".txt"), TIMEOUT_SECONDS);
            assertEquals(0, run.exitCode(), run.output());
            assertEquals("beta\n", Files.readString(dst.resolve("sub/b.txt")));
            List<String> lines = Files.readAllLines(trace);
            List<String> programs = lines.stream().filter(l -> l.contains("execve(") && l.endsWith("= 0"))
                    .map(l -> l.replaceAll(".*execve\\(\"([^\"]*)\".*", "$1")).toList();
            List<String> processes = lines.stream()
                    .filter(l -> l.matches(".*\\b(v?fork|clone3?)\\(.*") && !l.contains("CLONE_THREAD") && !l.contains("resumed>")).toList();
            // env execs the JVM with TERM, INT and HUP blocked (env --block-signal): one program more, in the same process.
            assertEquals(4, programs.size(), "the launcher, the bash that #!/usr/bin/env runs, env, the JVM: " + programs);
            assertTrue(programs.get(2).endsWith("/env"), programs.toString());
            assertTrue(programs.get(3).endsWith("/java"), programs.toString());
            assertEquals(List.of(), processes, "processes started beside the JVM's threads");
        }
    }

    /**
     * A rebuilt jar: the JVM would refuse the old archive (its record of the jar's size and mtime) and
     * then share no class at all, silently; the launcher gives it no stale archive and makes it anew.
     */
    @Test
    void aRebuiltJarHasItsArchiveMadeAnewAndTheStaleOneIsNotGiven() throws Exception {
        Path home = copyOfTheBuiltLauncher();
        Path cache = tmp.resolve("cache");
        Path src = smallTree();
        TimedProcess.Finished first = launch(home, cache, "copy", src + "/", tmp.resolve("dst1").toString());
        assertEquals(0, first.exitCode(), first.output());
        assertStillMaking(cache);
        List<Path> before = archivesWhenMade(cache, "jsa", 1);
        assertEquals(1, before.size(), before.toString());
        assertMapsTheArchive(home, cache, src);

        // A rebuilt jar: one more entry, so other bytes, size and time.
        Path jar = home.resolve("target/spark-dcp-app.jar");
        try (FileSystem zip = FileSystems.newFileSystem(URI.create("jar:" + jar.toUri()), Map.of())) {
            Files.writeString(zip.getPath("rebuilt.txt"), "a change\n");
        }
        String stale = classLoadLog(home, cache, src);
        assertTrue(stale.contains(" io.sparkdcp.cli.Main source: file:"), "the archive of the old jar is not given to the JVM:\n" + stale);
        long deadline = System.nanoTime() + TIMEOUT_SECONDS * 1_000_000_000L;
        while (Files.getLastModifiedTime(before.get(0)).compareTo(Files.getLastModifiedTime(jar)) <= 0 && System.nanoTime() < deadline)
            Thread.sleep(200);
        assertEquals(before, archivesWhenMade(cache, "jsa", 1), "made anew under the same name");
        assertTrue(Files.getLastModifiedTime(before.get(0)).compareTo(Files.getLastModifiedTime(jar)) > 0, "made after the jar");
        assertMapsTheArchive(home, cache, src);
    }

    /** The launcher builds when a source under src/main, however deep, is newer than the jar, and only then. */
    @Test
    void aChangedSourceBuildsAnUnchangedOneDoesNot() throws Exception {
        Path home = copyOfTheBuiltLauncher();
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Path mvn = bin.resolve("mvn");
        Files.writeString(mvn, "#!/bin/sh\necho fake maven ran >&2\nexit 1\n");
        Files.setPosixFilePermissions(mvn, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        ProcessBuilder unchanged = builder(home, tmp.resolve("cache"), null, "copy", "--version");
        unchanged.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        TimedProcess.Finished noBuild = TimedProcess.run(unchanged, Files.createTempFile(tmp, "out", ".txt"), TIMEOUT_SECONDS);
        assertEquals(0, noBuild.exitCode(), noBuild.output());
        assertFalse(noBuild.output().contains("fake maven"), noBuild.output());

        Path edited = Files.createDirectories(home.resolve("src/main/java/io/sparkdcp/copy")).resolve("Edited.java");
        Files.writeString(edited, "class Edited {}\n");
        FileTime old = FileTime.fromMillis(System.currentTimeMillis() - 3_600_000);
        for (Path directory = edited.getParent(); directory.startsWith(home.resolve("src")); directory = directory.getParent())
            Files.setLastModifiedTime(directory, old); // only the file is new: an edit, not a new directory
        ProcessBuilder changed = builder(home, tmp.resolve("cache"), null, "copy", "--version");
        changed.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        TimedProcess.Finished build = TimedProcess.run(changed, Files.createTempFile(tmp, "out", ".txt"), TIMEOUT_SECONDS);
        assertEquals(2, build.exitCode(), build.output());
        assertTrue(build.output().contains("fake maven ran") && build.output().contains("spark-dcp: the build failed"), build.output());
    }

    @Test
    void aReadOnlyCacheNeitherFailsNorSlowsACopyAndAnArchiveInItIsMapped() throws Exception {
        LoopMount.requireRootAndXfs();
        Path src = smallTree();
        try (LoopMount mount = LoopMount.create("launcher-cache", LoopMount.MIN_SIZE_MIB)) {
            Path cache = mount.dir().resolve("cache");
            Files.createDirectory(cache);
            Commands.run("mount", "-o", "remount,ro", mount.dir().toString());
            TimedProcess.Finished readOnly = launch(PROJECT, cache, "copy", src + "/", tmp.resolve("dst1").toString());
            assertEquals(0, readOnly.exitCode(), readOnly.output());
            assertEquals("beta\n", Files.readString(tmp.resolve("dst1/sub/b.txt")));
            assertFalse(readOnly.output().contains("Read-only"), readOnly.output());
            try (Stream<Path> files = Files.list(cache)) {
                assertEquals(List.of(), files.toList());
            }

            Commands.run("mount", "-o", "remount,rw", mount.dir().toString());
            assertEquals(0, launch(PROJECT, cache, "copy", src + "/", tmp.resolve("dst2").toString()).exitCode());
            assertEquals(1, archivesWhenMade(cache, "jsa", 1).size());
            Commands.run("mount", "-o", "remount,ro", mount.dir().toString());
            assertMapsTheArchive(PROJECT, cache, src);
        }
    }

    @Test
    void aMissingJavaIsOneLineAndStartsNoArchiveMaker() throws Exception {
        ProcessBuilder builder = builder(PROJECT, tmp.resolve("cache"), null, "copy", smallTree() + "/", tmp.resolve("dst").toString());
        builder.environment().put("JAVA_HOME", tmp.resolve("no-jdk").toString());
        TimedProcess.Finished run = TimedProcess.run(builder, Files.createTempFile(tmp, "out", ".txt"), TIMEOUT_SECONDS);
        assertEquals(2, run.exitCode(), run.output());
        assertTrue(run.output().startsWith("spark-dcp: no java at " + tmp.resolve("no-jdk/bin/java")), run.output());
        assertFalse(Files.exists(tmp.resolve("dst")));
        // No archive maker was started without a java: one would write in the cache after the launcher
        // exited (and race this test's clean-up), so watch the cache stay absent for a while.
        for (int i = 0; i < 20; i++) {
            assertFalse(Files.exists(tmp.resolve("cache")), "an archive maker started without a java");
            Thread.sleep(100);
        }
    }

    /**
     * With JAVA_HOME set to a JDK 25 the first copy makes an AOT cache in the background
     * (a training copy that writes it as its JVM exits); the next copy's JVM, a JDK 25 one, loads
     * spark-dcp's classes from it. picocli's, compiled for Java 5, cannot be linked ahead of time: from the jar.
     */
    @Test
    void onJdk25TheFirstCopyMakesAnAotCacheInTheBackgroundThatTheNextCopyMaps() throws Exception {
        Jdks.Jdk jdk25 = Jdks.newest25();
        Path cache = tmp.resolve("cache");
        Path src = smallTree();
        ProcessBuilder first = builder(PROJECT, cache, null, "copy", src + "/", tmp.resolve("dst1").toString());
        first.environment().put("JAVA_HOME", jdk25.home().toString());
        TimedProcess.Finished run = TimedProcess.run(first, Files.createTempFile(tmp, "out", ".txt"), TIMEOUT_SECONDS);
        assertEquals(0, run.exitCode(), run.output());
        assertStillMaking(cache);
        List<Path> caches = archivesWhenMade(cache, "aot", 1);
        assertEquals(1, caches.size(), caches.toString());
        assertEquals(List.of(), archives(cache, "jsa"), "no static archive beside it");

        Path log = tmp.resolve("classes.txt");
        ProcessBuilder second = builder(PROJECT, cache, "-Xlog:class+load=info,gc+init=info:file=" + log,
                "copy", src + "/", tmp.resolve("dst2").toString());
        second.environment().put("JAVA_HOME", jdk25.home().toString());
        TimedProcess.Finished mapped = TimedProcess.run(second, Files.createTempFile(tmp, "out", ".txt"), TIMEOUT_SECONDS);
        assertEquals(0, mapped.exitCode(), mapped.output());
        String classes = Files.readString(log);
        assertTrue(classes.contains("[gc,init] Version: " + jdk25.version() + "+"), "not on " + jdk25 + ":\n" + classes);
        for (String name : List.of("io.sparkdcp.cli.Main", "io.sparkdcp.posix.Posix", "com.fasterxml.jackson.core.JsonFactory"))
            assertTrue(classes.contains(" " + name + " source: shared objects file"), name + " not from the AOT cache:\n" + classes);
    }

    /**
     * The making (a training copy in a JVM of its own, then the dump) outlasts a small copy: had the
     * copy waited for it, the archive would be there and no work directory left.
     */
    private static void assertStillMaking(Path cache) throws IOException {
        try (Stream<Path> files = Files.list(cache)) {
            assertTrue(files.anyMatch(p -> p.getFileName().toString().startsWith(".making")),
                    "the first copy ended while its archive was still being made, in the background");
        }
    }

    /** A copy whose JVM loads spark-dcp's and picocli's classes (compiled for Java 5) from the archive, not from the jar. */
    private void assertMapsTheArchive(Path home, Path cache, Path src) throws Exception {
        String log = classLoadLog(home, cache, src);
        for (String name : List.of("io.sparkdcp.cli.Main", "io.sparkdcp.posix.Posix", "picocli.CommandLine"))
            assertTrue(log.contains(" " + name + " source: shared objects file"), name + " not from the archive:\n" + log);
    }

    /**
     * The JVM's class+load log of a copy of src that exits 0: the log of the launcher's own process (it
     * execs the JVM), not of an archive maker it starts, which inherits the option.
     */
    private String classLoadLog(Path home, Path cache, Path src) throws Exception {
        Process run = start(home, cache, "-Xlog:class+load=info:file=" + tmp.resolve("classes-%p.txt"), "copy", src + "/",
                tmp.resolve("dst-mapped-" + System.nanoTime()).toString());
        String output = new String(run.getInputStream().readAllBytes());
        assertEquals(0, run.waitFor(), output);
        return Files.readString(tmp.resolve("classes-" + run.pid() + ".txt"));
    }

    private TimedProcess.Finished launch(Path home, Path cache, String... args) throws IOException, InterruptedException {
        return TimedProcess.run(builder(home, cache, null, args), Files.createTempFile(tmp, "out", ".txt"), TIMEOUT_SECONDS);
    }

    /** stdout and stderr together; {@code javaOptions} through JAVA_TOOL_OPTIONS, when given. */
    private static Process start(Path home, Path cache, String javaOptions, String... args) throws IOException {
        return builder(home, cache, javaOptions, args).redirectErrorStream(true).start();
    }

    private static ProcessBuilder builder(Path home, Path cache, String javaOptions, String... args) {
        List<String> command = new ArrayList<>(List.of(home.resolve("submit-scripts/spark-dcp").toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("SPARK_DCP_CACHE_DIR", cache.toString());
        builder.environment().put("JAVA_HOME", Jdks.current().home().toString());
        if (javaOptions != null) builder.environment().put("JAVA_TOOL_OPTIONS", javaOptions);
        return builder;
    }

    /**
     * The archives ({@code kind} jsa or aot) once the making that the last copy started in the
     * background has ended: at least {@code expected} archives and no maker's work directory left (or the timeout).
     */
    static List<Path> archivesWhenMade(Path cache, String kind, int expected) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT_SECONDS * 1_000_000_000L;
        while (System.nanoTime() < deadline) {
            boolean making;
            try (Stream<Path> files = Files.list(cache)) {
                making = files.anyMatch(p -> p.getFileName().toString().startsWith(".making"));
            }
            if (!making && archives(cache, kind).size() >= expected) break;
            Thread.sleep(200);
        }
        return archives(cache, kind);
    }

    private static List<Path> archives(Path cache, String kind) throws IOException {
        try (Stream<Path> files = Files.list(cache)) {
            return files.filter(p -> p.getFileName().toString().matches("local-[0-9a-f]+\\." + kind)).sorted().toList();
        }
    }

    /** The launcher and the built jars in a home of their own, whose jar this test may change; no build is due. */
    private Path copyOfTheBuiltLauncher() throws Exception {
        // The project's own launcher builds the jars if they are missing or older than the sources.
        assertEquals(0, launch(PROJECT, tmp.resolve("build-cache"), "--version").exitCode());
        Path home = tmp.resolve("home");
        Files.createDirectories(home.resolve("submit-scripts"));
        Files.createDirectories(home.resolve("target"));
        Files.createDirectories(home.resolve("src/main"));
        Files.copy(PROJECT.resolve("submit-scripts/spark-dcp"), home.resolve("submit-scripts/spark-dcp"));
        Files.copy(PROJECT.resolve("pom.xml"), home.resolve("pom.xml"));
        for (String file : List.of("spark-dcp.jar", "spark-dcp-app.jar", "classpath.txt"))
            Files.copy(PROJECT.resolve("target").resolve(file), home.resolve("target").resolve(file));
        FileTime old = FileTime.fromMillis(System.currentTimeMillis() - 3_600_000);
        for (String path : List.of("pom.xml", "src/main")) Files.setLastModifiedTime(home.resolve(path), old);
        return home;
    }

    private Path smallTree() throws IOException {
        return smallTree(tmp);
    }

    /** a.txt, sub/b.txt and a symlink to a.txt, in tmp/src. */
    static Path smallTree(Path tmp) throws IOException {
        Path src = tmp.resolve("src");
        if (Files.exists(src)) return src;
        Files.createDirectories(src.resolve("sub"));
        Files.writeString(src.resolve("a.txt"), "alpha\n");
        Files.writeString(src.resolve("sub/b.txt"), "beta\n");
        Files.createSymbolicLink(src.resolve("link"), Path.of("a.txt"));
        return src;
    }
}

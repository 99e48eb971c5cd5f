package io.sparkdcp.cli;

import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.Jdks;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.TimedProcess;
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
        assertEquals(made, Files.getLastModifiedTime(archives.get(0)), "a later copy uses the archive as it is");
    }

    @Test
    void aChangedJarGetsAnArchiveOfItsOwn() throws Exception {
        Path home = copyOfTheBuiltLauncher();
        Path cache = tmp.resolve("cache");
        Path src = smallTree();
        TimedProcess.Finished first = launch(home, cache, "copy", src + "/", tmp.resolve("dst1").toString());
        assertEquals(0, first.exitCode(), first.output());
        assertStillMaking(cache);
        List<Path> before = archivesWhenMade(cache, "jsa", 1);
        assertEquals(1, before.size(), before.toString());

        // A rebuilt jar: one more entry, so other bytes, size and time.
        try (FileSystem jar = FileSystems.newFileSystem(URI.create("jar:" + home.resolve("target/spark-dcp-app.jar").toUri()), Map.of())) {
            Files.writeString(jar.getPath("rebuilt.txt"), "a change\n");
        }
        TimedProcess.Finished second = launch(home, cache, "copy", src + "/", tmp.resolve("dst2").toString());
        assertEquals(0, second.exitCode(), second.output());
        List<Path> after = archivesWhenMade(cache, "jsa", 2);
        assertEquals(2, after.size(), after.toString());
        assertTrue(after.containsAll(before), "the older archive is kept for a while (another checkout may use it)");
        assertMapsTheArchive(home, cache, src);
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
    void aMissingJavaIsNamedWhileTheArchiveIsLookedFor() throws Exception {
        ProcessBuilder builder = builder(PROJECT, tmp.resolve("cache"), null, "copy", smallTree() + "/", tmp.resolve("dst").toString());
        builder.environment().put("JAVA_HOME", tmp.resolve("no-jdk").toString());
        TimedProcess.Finished run = TimedProcess.run(builder, Files.createTempFile(tmp, "out", ".txt"), TIMEOUT_SECONDS);
        assertEquals(127, run.exitCode(), run.output());
        assertTrue(run.output().contains(tmp.resolve("no-jdk/bin/java") + ": No such file or directory"), run.output());
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
        Path classes = tmp.resolve("classes-" + System.nanoTime() + ".txt");
        Process run = start(home, cache, "-Xlog:class+load=info:file=" + classes, "copy", src + "/",
                tmp.resolve("dst-mapped-" + System.nanoTime()).toString());
        String output = new String(run.getInputStream().readAllBytes());
        assertEquals(0, run.waitFor(), output);
        String log = Files.readString(classes);
        for (String name : List.of("io.sparkdcp.cli.Main", "io.sparkdcp.posix.Posix", "picocli.CommandLine"))
            assertTrue(log.contains(" " + name + " source: shared objects file"), name + " not from the archive:\n" + log);
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

package io.sparkdcp.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkdcp.testing.AppJars;
import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.LoopMount;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every local copy, sync and compare as a user runs it: through submit-scripts/spark-dcp without --master, which runs
 * them on its short class path (the app jar and Jackson: no Spark, Hadoop, log4j or Scala). Each case is one launch over
 * a small tree with every kind of entry on XFS; it must exit as documented, with no class missing, and must really have
 * run on the short class path (its JVM's class-loading log says where each class came from). Last, the classes all
 * these runs loaded are held to {@link SparkDoors}' rule, which also covers their branches no case took.
 */
class ShortClassPathTest {
    private static final Path LAUNCHER = AppJars.PROJECT.resolve("submit-scripts/spark-dcp");
    /** Outside any @TempDir: the launcher's detached class-archive maker inherits the logging and may write here later. */
    private static final Path CLASS_LOGS = AppJars.PROJECT.resolve("target/short-class-path-loads");
    private static final long TIMEOUT_SECONDS = 120;
    private static final Pattern LOADED = Pattern.compile("\\[class,load\\] (\\S+) source: (.*)");
    private static final List<String> MISSING_CLASS = List.of("NoClassDefFoundError", "ClassNotFoundException", "Exception in thread", "\tat ");
    /** The spark-dcp classes the local runs loaded. */
    private static final Set<String> LOADED_CLASSES = new ConcurrentSkipListSet<>();

    private static LoopMount mount;
    private static Path src;
    private static Path src2;
    /** SRC's copy, made by the launcher: compared and synced against, never changed by a case. */
    private static Path ref;
    private static Path out;

    private record Launch(int exitCode, String stdout, String stderr, List<String> classLog) {
        String output() {
            return stdout + stderr;
        }
    }

    private interface Check {
        void check(Launch launch) throws Exception;
    }

    /** @param shortPath false for the runs the launcher must give the full class path */
    private record Case(String name, int exitCode, boolean shortPath, List<String> args, Check check) {
        /** This case, checking what the run did too. */
        Case then(Check what) {
            return new Case(name, exitCode, shortPath, args, what);
        }
    }

    @BeforeAll
    static void tree() throws Exception {
        LoopMount.requireRootAndXfs();
        AppJars.fromLauncherBuild();
        mount = LoopMount.create("short-path", LoopMount.MIN_SIZE_MIB);
        src = Files.createDirectory(mount.dir().resolve("src"));
        Files.writeString(src.resolve("a.txt"), "alpha\n");
        Commands.run("setfattr", "-n", "user.kept", "-v", "value", src.resolve("a.txt").toString());
        Files.writeString(src.resolve("scratch.tmp"), "left out by filters\n");
        Path sub = Files.createDirectory(src.resolve("sub"));
        // Project 77 with PROJINHERIT before the children: they inherit it.
        Commands.run("xfs_io", "-x", "-c", "chproj 77", "-c", "chattr +P", sub.toString());
        Files.writeString(sub.resolve("b.txt"), "beta\n");
        Files.createLink(sub.resolve("hard"), sub.resolve("b.txt")); // in the same project: XFS links across none
        Files.writeString(Files.createDirectories(sub.resolve("deep")).resolve("d.txt"), "deep\n");
        Files.createSymbolicLink(src.resolve("link"), Path.of("a.txt"));
        Commands.run("mkfifo", src.resolve("fifo").toString());
        try (RandomAccessFile sparse = new RandomAccessFile(src.resolve("sparse.img").toFile(), "rw")) {
            sparse.seek(5L << 20);
            sparse.write("data between holes".getBytes());
            sparse.setLength(10L << 20);
        }
        src2 = Files.createDirectory(mount.dir().resolve("src2"));
        Files.writeString(src2.resolve("c.txt"), "gamma\n");
        out = Files.createDirectory(mount.dir().resolve("out"));
        deleteClassLogs();
        Files.createDirectories(CLASS_LOGS);
        ref = mount.dir().resolve("ref");
        Launch copy = launch(List.of("copy", src + "/", ref.toString()));
        assertEquals(0, copy.exitCode(), copy.output());
        // What the cases that read a ledger or a saved listing back read, written by launches like theirs.
        Launch ledger = launch(List.of("sync", "--state", out.resolve("state-read").toString(), src + "/", dst("sync-state-read").toString()));
        assertEquals(0, ledger.exitCode(), ledger.output());
        Launch listing = launch(List.of("copy", "--save-listing", out.resolve("listing-read").toString(), src + "/", dst("listing-saved").toString()));
        assertEquals(0, listing.exitCode(), listing.output());
    }

    @AfterAll
    static void unmount() throws IOException {
        if (mount != null) mount.close();
        deleteClassLogs();
    }

    @TestFactory
    Stream<DynamicTest> everyLocalCommandRunsOnTheShortClassPath() throws IOException {
        List<Case> cases = cases();
        // Two launches at a time, on CI's two cores: the cases write to DSTs of their own and only read SRC and ref.
        ExecutorService pool = Executors.newFixedThreadPool(2);
        List<Future<Launch>> launches = cases.stream().map(c -> pool.submit(() -> launch(c.args()))).toList();
        pool.shutdown();
        List<DynamicTest> tests = new ArrayList<>();
        for (int i = 0; i < cases.size(); i++) {
            Case c = cases.get(i);
            Future<Launch> launch = launches.get(i);
            tests.add(DynamicTest.dynamicTest(c.name() + ": " + String.join(" ", c.args()), () -> check(c, launch.get())));
        }
        tests.add(DynamicTest.dynamicTest("the classes these runs loaded keep SparkDoors' rule", () -> {
            assertEquals(List.of(), SparkDoors.violations(SparkDoors.production(), LOADED_CLASSES));
            assertTrue(LOADED_CLASSES.contains("io.sparkdcp.job.CopyJob"), "the class logs were read: " + LOADED_CLASSES);
        }));
        return tests.stream();
    }

    private static List<Case> cases() throws IOException {
        Path clash = Files.createDirectories(dst("clash"));
        Path fileDst = Files.createDirectories(dst("file-dir"));
        Files.writeString(clash.resolve("sub"), "a file where SRC has a directory\n");
        Path newerAtDst = Files.createDirectories(dst("update"));
        Files.setLastModifiedTime(Files.writeString(newerAtDst.resolve("a.txt"), "newer\n"), FileTime.fromMillis(System.currentTimeMillis() + 86_400_000));
        Path withExtra = Files.createDirectories(dst("sync-delete"));
        Files.writeString(withExtra.resolve("extra"), "not in SRC\n");
        Path dryExtra = Files.createDirectories(dst("sync-dry-run"));
        Files.writeString(dryExtra.resolve("extra"), "not in SRC\n");
        Path excludedAtDst = Files.createDirectories(dst("sync-excluded"));
        Files.writeString(excludedAtDst.resolve("scratch.tmp"), "excluded\n");
        Path refusedExtra = Files.createDirectories(dst("sync-refused"));
        Files.writeString(refusedExtra.resolve("extra"), "kept: SRC was not listed whole\n");
        Path wanted = Files.writeString(out.resolve("wanted"), "sub\na.txt\n");
        Path wantedMissing = Files.writeString(out.resolve("wanted-missing"), "a.txt\nmissing\n");
        Path rules = Files.writeString(out.resolve("rules"), "# deep stays behind\ndeep/\n");
        String s = src + "/";
        return List.of(
                ok("copy", "copy", s, dst("plain")).then(l -> {
                    Path d = dst("plain");
                    assertEquals(Files.getAttribute(d.resolve("sub/b.txt"), "unix:ino"), Files.getAttribute(d.resolve("sub/hard"), "unix:ino"));
                    assertEquals(Path.of("a.txt"), Files.readSymbolicLink(d.resolve("link")));
                    assertTrue(Files.getAttribute(d.resolve("fifo"), "unix:mode") instanceof Integer m && (m & 0170000) == 0010000);
                    assertTrue(Commands.run("getfattr", "-n", "user.kept", d.resolve("a.txt").toString()).contains("value"));
                    assertTrue(Commands.run("xfs_io", "-c", "lsproj", d.resolve("sub/b.txt").toString()).contains("77"));
                }),
                ok("dry run", "copy", "--dry-run", s, dst("dry")).then(l -> {
                    assertTrue(l.output().contains("copy: sub/b.txt"), l.output());
                    assertFalse(Files.exists(dst("dry")));
                }),
                ok("atomic, verified", "copy", "--atomic", "--verify", "--fsync", s, dst("atomic")),
                ok("filters", "copy", "--exclude", "*.tmp", "--include", "sub/**", s, dst("filters")).then(l -> {
                    assertFalse(Files.exists(dst("filters/scratch.tmp")));
                    assertTrue(Files.exists(dst("filters/sub/deep/d.txt")));
                }),
                ok("rules from files", "copy", "--exclude-from", rules.toString(), "--files-from", wanted.toString(), s, dst("from")).then(l -> {
                    assertTrue(Files.exists(dst("from/sub/b.txt")));
                    assertFalse(Files.exists(dst("from/sub/deep")));
                    assertFalse(Files.exists(dst("from/link"), java.nio.file.LinkOption.NOFOLLOW_LINKS));
                }),
                ok("xattrs all, on the fds", "copy", "--xattrs", "all", "--xattr-access", "fd", s, dst("by-fd")),
                ok("no xattrs, project IDs or flags", "copy", "--xattrs", "none", "--no-projid", "--no-flags", s, dst("bare"))
                        .then(l -> assertFalse(Commands.run("getfattr", "-d", dst("bare/a.txt").toString()).contains("user.kept"))),
                ok("libattr, strict, Lustre layout", "copy", "--xattrs", "libattr", "--strict", "--lustre-layout", "keep", s, dst("strict")),
                ok("distributed walk on threads", "copy", "--walk", "distributed", "--report", out.resolve("walk.json").toString(), s,
                        dst("walk-distributed")).then(l -> {
                    assertEquals("executors", report("walk.json").at("/settings/listed_by").asText());
                    // The rounds ran on the launcher's threads, not on executors; one round is "1 round".
                    assertTrue(l.output().matches("(?s).*spark-dcp: walked in parallel tasks on \\d+ threads? in (1 round|\\d+ rounds)\n.*"),
                            l.output());
                }),
                ok("driver walk, small tasks, chunks, progress", "copy", "--walk", "driver", "--progress", "1", "--threads-per-task", "4",
                        "--batch-files", "2", "--batch-bytes", "1M", "--chunk-size", "1M", "--walk-threads", "2", s, dst("chunks")),
                ok("throttled", "copy", "--walk", "auto", "--max-ops", "100000", "--bwlimit", "100M", s, dst("throttled")),
                // In a directory of its own: a file's DST lock is on the directory that holds it, which no other case may share.
                ok("a file", "copy", src.resolve("a.txt").toString(), fileDst.resolve("file"))
                        .then(l -> assertEquals("alpha\n", Files.readString(fileDst.resolve("file")))),
                ok("several sources", "copy", src.toString(), src2.toString(), dst("several"))
                        .then(l -> assertTrue(Files.exists(dst("several/src/sub/b.txt")) && Files.exists(dst("several/src2/c.txt")))),
                ok("--mkpath", "copy", "--mkpath", s, dst("new/deeper/mkpath")),
                ok("--update", "copy", "--update", s, newerAtDst).then(l -> assertEquals("newer\n", Files.readString(newerAtDst.resolve("a.txt")))),
                fails("a failed entry", 1, "copy", "--report", out.resolve("failed.json").toString(), s, clash).then(l -> {
                    assertTrue(l.output().contains("spark-dcp: failed: sub: "), l.output());
                    assertEquals(1, report("failed.json").get("exit_code").asInt());
                }),
                fails("a report that cannot be written", 2, "copy", "--report", "/proc/spark-dcp-report.json", s, dst("no-report"))
                        .then(l -> assertTrue(l.output().contains("cannot be written"), l.output())),
                fails("a missing parent", 2, "copy", s, dst("missing/parent/dst")).then(l -> assertFalse(Files.exists(dst("missing")))),
                fails("an unknown option", 2, "copy", "--frobnicate", s, dst("unknown")),
                ok("help", "copy", "--help").then(l -> assertTrue(l.output().contains("--xattr-access"), l.output())),
                ok("version", "compare", "--version").then(l -> assertTrue(l.stdout().startsWith("spark-dcp "), l.output())),
                ok("sync --delete", "sync", "--delete", s, withExtra).then(l -> assertFalse(Files.exists(withExtra.resolve("extra")))),
                ok("sync --delete --dry-run", "sync", "--delete", "--dry-run", s, dryExtra).then(l -> {
                    assertTrue(l.output().contains("delete: extra"), l.output());
                    assertTrue(Files.exists(dryExtra.resolve("extra")));
                }),
                ok("sync --contents --delete-excluded", "sync", "--contents", "--delete-excluded", "--exclude", "*.tmp", s, excludedAtDst)
                        .then(l -> assertFalse(Files.exists(excludedAtDst.resolve("scratch.tmp")))),
                ok("sync distributed, atomic", "sync", "--walk", "distributed", "--delete", "--atomic", s, dst("sync-distributed")),
                fails("sync --delete after a listing error", 1, "sync", "--delete", "--files-from", wantedMissing.toString(), s, refusedExtra)
                        .then(l -> assertTrue(Files.exists(refusedExtra.resolve("extra")))),
                ok("sync --update --dry-run", "sync", "--update", "--dry-run", s, ref),
                // A ledger, an item log and a saved listing in a local place: written and read without Hadoop.
                ok("sync --state", "sync", "--state", out.resolve("state"), s, dst("sync-state")).then(l -> {
                    assertTrue(Files.isRegularFile(out.resolve("state/state-0000000001/HEADER")), l.output());
                    assertEquals("rwx------", java.nio.file.attribute.PosixFilePermissions.toString(
                            Files.getPosixFilePermissions(out.resolve("state/state-0000000001"))), "the ledger holds names: its own user's");
                }),
                ok("sync --state, a ledger read back", "sync", "--state", "file://" + out.resolve("state-read"), "--report",
                        out.resolve("state-read.json"), s, dst("sync-state-read"))
                        .then(l -> assertTrue(report("state-read.json").at("/ledger_unchanged").asLong() > 0, l.output())),
                ok("sync --delete --dry-run --state", "sync", "--delete", "--dry-run", "--state", out.resolve("state-read-dry"), s, ref),
                ok("sync --log", "sync", "--log", out.resolve("log"), s, dst("sync-log")).then(l -> {
                    assertTrue(Files.exists(out.resolve("log/_SUCCESS")), l.output());
                    assertFalse(io.sparkdcp.itemlog.ItemLogDir.read(out.resolve("log").toString()).isEmpty(), "the copied entries' lines");
                }),
                fails("compare --log", 1, "compare", "--log", "file:" + out.resolve("compare-log"), s, src2.toString())
                        .then(l -> assertFalse(io.sparkdcp.itemlog.ItemLogDir.read(out.resolve("compare-log").toString()).isEmpty(), "its differences")),
                ok("copy --save-listing", "copy", "--save-listing", out.resolve("listing"), s, dst("save-listing"))
                        .then(l -> assertTrue(Files.exists(out.resolve("listing/_SUCCESS")), l.output())),
                ok("sync --listing", "sync", "--listing", out.resolve("listing-read"), "--report", out.resolve("listing-read.json"), s,
                        dst("sync-listing")).then(l -> assertEquals("saved", report("listing-read.json").at("/settings/listed_by").asText())),
                ok("compare", "compare", s, ref.toString()),
                ok("compare --contents, distributed walk", "compare", "--contents", "--walk", "distributed", s, ref.toString()),
                ok("compare with every option", "compare", "--xattrs", "all", "--no-projid", "--time-window", "1s", "--threads-per-task", "2",
                        "--chunk-size", "1M", "--batch-files", "2", "--report", out.resolve("compare.json").toString(), s, ref.toString())
                        .then(l -> assertEquals(0, report("compare.json").get("exit_code").asInt())),
                fails("compare, different", 1, "compare", s, src2.toString()).then(l -> assertTrue(l.output().contains("only_in_source"), l.output())),
                ok("compare a file", "compare", src.resolve("a.txt").toString(), ref.resolve("a.txt").toString()),
                fails("compare, DST missing", 2, "compare", s, dst("absent")),
                fails("compare --max-ops", 2, "compare", "--max-ops", "3", s, ref.toString()),
                // -v's step table needs no jar of Spark's, in any of its spellings: the launcher gives the short path.
                ok("copy -v", "copy", "-v", s, dst("short-v")).then(l -> assertTrue(l.stdout().contains("\nstep "), l.stdout())),
                ok("copy --verbose", "copy", "--verbose", s, dst("short-verbose")).then(l -> assertTrue(l.stdout().contains("\nstep "), l.stdout())),
                ok("--verbose=true", "copy", "--verbose=true", s, dst("verbose")).then(l -> assertTrue(l.stdout().contains("\nstep "), l.stdout())));
    }

    /**
     * A JVM on the short class path (built as the launcher builds it) asked for something that needs Spark's jars,
     * through an option or spark.master: one line and exit 2 before anything is written, not a NoClassDefFoundError.
     */
    @Test
    void aRunThatNeedsSparksJarsWithoutThemIsRefusedInOneLine() throws Exception {
        String classpath = shortClassPath();
        Commands.Result log = Commands.tryRun(new ProcessBuilder("java", "-cp", classpath, Main.class.getName(),
                "copy", "--log", "hdfs://namenode:8020/refused-log-dir", src + "/", dst("refused-log").toString()));
        assertEquals(2, log.exitCode(), log.stderr());
        assertTrue(log.stderr().startsWith("spark-dcp: --log needs Spark's, Hadoop's and log4j's jars"), log.stderr());
        assertEquals(1, log.stderr().lines().count(), log.stderr());
        assertFalse(Files.exists(dst("refused-log")));

        Commands.Result master = Commands.tryRun(new ProcessBuilder("java", "-Dspark.master=local[1]", "-cp", classpath,
                Main.class.getName(), "compare", src + "/", ref.toString()));
        assertEquals(2, master.exitCode(), master.stderr());
        assertTrue(master.stderr().startsWith("spark-dcp: the system property spark.master needs "), master.stderr());
    }

    /**
     * The launcher gives the full class path for each of FullClassPath.OPTIONS (its scan reads OPT=VALUE as OPT VALUE:
     * LauncherOptionScanTest launches both spellings of each).
     */
    @Test
    void theLauncherGivesTheFullClassPathForEveryOptionThatNeedsIt() throws IOException {
        Set<String> patterns = new java.util.HashSet<>();
        for (String line : Files.readAllLines(LAUNCHER)) {
            Matcher m = Pattern.compile("^\\s*([^()]+)\\).*spark_classes=1 ;;").matcher(line);
            if (m.find()) for (String p : m.group(1).split("\\|")) patterns.add(p.strip());
        }
        for (String option : FullClassPath.OPTIONS) assertTrue(patterns.contains(option), option + " in " + patterns);
    }

    /** The app jar and Jackson's jars from target/classpath.txt, as the launcher reads them. */
    private static String shortClassPath() throws IOException {
        List<String> jars = new ArrayList<>(List.of(AppJars.PROJECT.resolve("target/spark-dcp-app.jar").toString()));
        for (String jar : Files.readString(AppJars.PROJECT.resolve("target/classpath.txt")).strip().split(":"))
            if (Path.of(jar).getFileName().toString().matches("jackson-(core|databind|annotations)-.*")) jars.add(jar);
        return String.join(":", jars);
    }

    private static Case ok(String name, Object... args) {
        return fails(name, 0, args);
    }

    /** A run on the short class path; args are Strings and Paths. */
    private static Case fails(String name, int exitCode, Object... args) {
        return new Case(name, exitCode, true, Stream.of(args).map(Object::toString).toList(), l -> {});
    }

    private static void check(Case c, Launch launch) throws Exception {
        List<String> sources = new ArrayList<>();
        for (String line : launch.classLog()) {
            Matcher m = LOADED.matcher(line);
            if (!m.find()) continue;
            // Collected before anything is asserted: a run that failed counts for SparkDoors' rule too.
            if (c.shortPath() && m.group(1).startsWith("io.sparkdcp.") && !m.group(1).contains("$$Lambda")) LOADED_CLASSES.add(m.group(1));
            if (m.group(2).startsWith("file:") || m.group(2).startsWith("jar:")) sources.add(m.group(2));
        }
        String describe = "exit " + launch.exitCode() + "\n" + launch.output();
        for (String sign : MISSING_CLASS) assertFalse(launch.output().contains(sign), describe);
        assertEquals(c.exitCode(), launch.exitCode(), describe);
        if (c.shortPath()) {
            assertTrue(launch.classLog().stream().anyMatch(l -> l.contains(" io.sparkdcp.cli.Main source: ")), "no class log");
            for (String source : sources)
                assertTrue(source.endsWith("/target/spark-dcp-app.jar") || source.matches(".*/jackson-[a-z]+-[^/]*\\.jar"),
                        "a class from outside the short class path: " + source);
        }
        c.check().check(launch);
    }

    /** The launcher with these arguments; its JVM logs each class it loads to CLASS_LOGS/PID.log (the launcher execs it). */
    private static Launch launch(List<String> args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(LAUNCHER.toString()));
        command.addAll(args);
        Path stdout = Files.createTempFile(out, "stdout", ".txt");
        Path stderr = Files.createTempFile(out, "stderr", ".txt");
        ProcessBuilder builder = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(stdout.toFile()).redirectError(stderr.toFile());
        builder.environment().put("JAVA_TOOL_OPTIONS", "-Xlog:class+load=info:file=" + CLASS_LOGS + "/%p.log");
        Process process = builder.start();
        boolean finished = process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        if (!finished) process.destroyForcibly().waitFor();
        assertTrue(finished, String.join(" ", args) + " ran more than " + TIMEOUT_SECONDS + " s:\n" + Files.readString(stderr));
        Path log = CLASS_LOGS.resolve(process.pid() + ".log");
        List<String> classLog = Files.exists(log) ? Files.readAllLines(log) : List.of();
        Files.deleteIfExists(log);
        return new Launch(process.exitValue(), Files.readString(stdout), Files.readString(stderr), classLog);
    }

    private static Path dst(String name) {
        return out.resolve(name);
    }

    private static JsonNode report(String name) throws IOException {
        return new ObjectMapper().readTree(out.resolve(name).toFile());
    }

    private static void deleteClassLogs() throws IOException {
        if (!Files.isDirectory(CLASS_LOGS)) return;
        try (Stream<Path> logs = Files.list(CLASS_LOGS)) {
            for (Path p : logs.toList()) Files.deleteIfExists(p);
        }
    }
}

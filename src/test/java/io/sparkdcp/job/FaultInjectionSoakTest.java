package io.sparkdcp.job;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkdcp.testing.ChildJvm;
import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.CopyTreeMain;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.TreeComparator;
import io.sparkdcp.testing.TreeFiles;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserDefinedFileAttributeView;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 12's fault-injection soak: runs of a real spark-dcp process (copy, --atomic, sync, sync --delete,
 * chosen at random) on a 2,000-entry XFS tree, each SIGKILLed with its whole process group at a random
 * moment (up to 0.7 times a full copy's time; a re-run is quicker, so some end first), with random changes to SRC between
 * runs; after every fifth, one run is left to end. Every run that ends by itself must exit 0 and its
 * report must agree with the tree (every entry accounted once, and what it calls copied or identical
 * is); after a final sync --delete the tree comparator finds no difference and no temporary is left.
 * 50 runs in CI; {@code -Dspark-dcp.soak.runs=N} for a longer one, {@code -Dspark-dcp.soak.seed=S} to replay.
 */
class FaultInjectionSoakTest {
    private static final int RUNS = Integer.getInteger("spark-dcp.soak.runs", 50);
    private static final long SEED = Long.getLong("spark-dcp.soak.seed", System.nanoTime());
    private static final List<List<String>> MODES = List.of(List.of(), List.of("atomic"), List.of("sync"),
            List.of("sync", "delete"), List.of("sync", "delete", "atomic"));
    private static LoopMount mount;
    private static Path src;
    private static Path dst;
    private final Random random = new Random(SEED);
    private final ObjectMapper json = new ObjectMapper();

    @BeforeAll
    static void build() throws IOException {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.createWithoutReflink("soak", 1024);
        src = Files.createDirectory(mount.dir().resolve("src"));
        dst = Files.createDirectory(mount.dir().resolve("dst"));
    }

    @AfterAll
    static void unmount() {
        if (mount != null) mount.close();
    }

    @Test
    void killedRunsWithSourceChangesInBetweenEndInAnExactCopyAndNoRunReportsWhatIsNotThere(TestReporter reporter) throws Exception {
        buildTree();
        assertEquals(2_000, TreeFiles.everything(src).size() - 1, "a 2,000-entry tree");
        long start = System.nanoTime();
        Run first = run(List.of("sync", "delete"), Long.MAX_VALUE);
        long fullRunMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        checkAgreement(first, List.of("sync", "delete"));
        int kills = 0, completed = 0;
        for (int i = 0; i < RUNS; i++) {
            changeSource(random.nextInt(9));
            List<String> mode = MODES.get(random.nextInt(MODES.size()));
            Run r = run(mode, (long) (random.nextDouble() * fullRunMillis * 0.7));
            if (r.killed()) {
                kills++;
            } else {
                completed++;
                checkAgreement(r, mode);
            }
            if (i % 5 == 4) { // and a run left to end after the kills, whose report is checked
                changeSource(random.nextInt(4));
                List<String> resumed = MODES.get(random.nextInt(MODES.size()));
                checkAgreement(run(resumed, Long.MAX_VALUE), resumed);
                completed++;
            }
        }
        changeSource(8);
        Run last = run(List.of("sync", "delete"), Long.MAX_VALUE);
        checkAgreement(last, List.of("sync", "delete"));
        List<String> differences = TreeComparator.differences(src, dst);
        List<Path> temporaries = TreeFiles.everything(dst).stream().filter(p -> p.getFileName().toString().startsWith(".spark-dcp.")).toList();
        String figures = "seed " + SEED + ": " + RUNS + " runs, " + kills + " killed, " + completed + " completed (each checked), "
                + "then a final run: " + differences.size() + " differences, " + temporaries.size() + " temporaries; "
                + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start) + " s";
        reporter.publishEntry("soak", figures);
        Files.writeString(Path.of("target", "soak-figures.txt"), figures + "\n"); // for the figures in docs/benchmarks.md
        assertEquals(List.of(), differences, "seed " + SEED);
        assertEquals(List.of(), temporaries, "seed " + SEED);
        assertTrue(kills >= RUNS / 4, "runs killed mid-way: " + kills + " of " + RUNS + " (seed " + SEED + ")");
    }

    private record Run(boolean killed, int exitCode, Path report, String output) {}

    /** One spark-dcp process in a process group of its own, SIGKILLed (the whole group) after killAfterMillis. */
    private Run run(List<String> mode, long killAfterMillis) throws Exception {
        Path report = mount.dir().resolve("report.json");
        Path output = mount.dir().resolve("output.txt");
        Files.deleteIfExists(report);
        List<String> command = new ArrayList<>(List.of("setsid", Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m"));
        command.addAll(ChildJvm.FLAGS);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), CopyTreeMain.class.getName(), src.toString(), dst.toString(), "fd"));
        command.addAll(mode);
        command.add("report=" + report);
        Process p = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        boolean ended = killAfterMillis == Long.MAX_VALUE ? p.waitFor(5, TimeUnit.MINUTES) : p.waitFor(killAfterMillis, TimeUnit.MILLISECONDS);
        if (!ended) {
            Commands.tryRun("kill", "-KILL", "--", "-" + p.pid()); // setsid made the JVM its group's leader
            assertTrue(p.waitFor(1, TimeUnit.MINUTES), "killed");
            assertTrue(killAfterMillis != Long.MAX_VALUE, "a run that should end did not: " + Files.readString(output));
        }
        return new Run(!ended, ended ? p.exitValue() : -1, report, Files.readString(output));
    }

    /** A run that ended by itself: exit 0, every entry accounted once, and the tree is what it claims. */
    private void checkAgreement(Run r, List<String> mode) throws IOException {
        String why = "mode " + mode + ", seed " + SEED + ":\n" + r.output();
        assertEquals(0, r.exitCode(), why);
        JsonNode report = json.readTree(r.report().toFile());
        assertEquals(0, report.get("failed").asLong(), why);
        long entries = TreeFiles.everything(src).size(); // the root included, as the listing counts it
        assertEquals(entries, report.get("entries_listed").asLong(), why);
        assertEquals(entries, report.get("copied").asLong() - report.get("links").asLong() + report.get("skipped").asLong()
                - report.get("links_skipped").asLong() + report.get("metadata_fixed").asLong(), "each entry once: " + report);
        List<String> differences = TreeComparator.differences(src, dst);
        if (!mode.contains("delete")) // a copy keeps what SRC no longer has, and a killed --atomic run's temporaries
            differences = differences.stream().filter(d -> !d.contains(": only_in_destination: ")).toList();
        assertEquals(List.of(), differences, "what the report calls copied or identical is: " + why);
    }

    // ---- the source tree and its changes --------------------------------------------------------

    private void buildTree() throws IOException {
        for (int d = 0; d < 40; d++) {
            Path dir = Files.createDirectory(src.resolve("d" + d));
            for (int f = 0; f < 47; f++) writeRandom(dir.resolve("f" + f), f == 0 && d % 8 == 0 ? (1 << 20) + random.nextInt(1 << 20) : random.nextInt(32 << 10));
            Files.createSymbolicLink(dir.resolve("link"), Path.of("f1"));
            Files.createSymbolicLink(dir.resolve("dangling"), Path.of("../nowhere"));
            UserDefinedFileAttributeView xattrs = Files.getFileAttributeView(dir.resolve("f2"), UserDefinedFileAttributeView.class);
            xattrs.write("soak", ByteBuffer.wrap(("d" + d).getBytes()));
        }
    }

    private void writeRandom(Path file, int size) throws IOException {
        byte[] data = new byte[size];
        random.nextBytes(data);
        Files.write(file, data);
    }

    /** n random changes, as users make them between runs. */
    private void changeSource(int n) throws IOException {
        for (int i = 0; i < n; i++) {
            List<Path> dirs = directories();
            Path dir = dirs.get(random.nextInt(dirs.size()));
            List<Path> files = TreeFiles.regularFiles(dir).stream().filter(f -> f.getParent().equals(dir)).toList();
            Path file = files.isEmpty() ? null : files.get(random.nextInt(files.size()));
            switch (file == null ? 3 : random.nextInt(9)) {
                case 0 -> writeRandom(file, random.nextInt(64 << 10));
                case 1 -> Files.write(file, new byte[]{(byte) random.nextInt()}, StandardOpenOption.APPEND);
                case 2 -> Files.delete(file);
                case 3 -> writeRandom(dir.resolve("new" + random.nextInt(1_000_000)), random.nextInt(16 << 10));
                case 4 -> Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(random.nextBoolean() ? "rw-------" : "rwxr-xr-x"));
                case 5 -> Files.setLastModifiedTime(file, FileTime.fromMillis(1_500_000_000_000L + random.nextInt(1 << 30)));
                case 6 -> Files.move(file, dir.resolve("renamed" + random.nextInt(1_000_000)));
                case 7 -> {
                    Path made = Files.createDirectory(src.resolve("made" + random.nextInt(1_000_000)));
                    for (int f = 0; f < 3; f++) writeRandom(made.resolve("f" + f), random.nextInt(8 << 10));
                }
                default -> {
                    if (dirs.size() > 30) removeTree(dir);
                }
            }
        }
    }

    private static List<Path> directories() throws IOException {
        try (var s = Files.list(src)) {
            return s.filter(Files::isDirectory).sorted().toList();
        }
    }

    private static void removeTree(Path dir) throws IOException {
        List<Path> all = new ArrayList<>(TreeFiles.everything(dir));
        java.util.Collections.reverse(all);
        for (Path p : all) Files.delete(p);
    }
}

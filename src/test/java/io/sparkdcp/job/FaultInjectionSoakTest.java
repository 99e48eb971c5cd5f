package io.sparkdcp.job;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.Flocks;
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
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserDefinedFileAttributeView;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fault-injection soak: runs of the real command, {@code submit-scripts/spark-dcp} (copy, --atomic, --update,
 * sync, sync --delete, chosen at random), on a 2,000-entry XFS tree, each SIGKILLed with its whole process group at a
 * random moment (within the time the last run that ended took; some end first). Between runs: random
 * changes to SRC, SRC atimes drawn at random (the epoch's first second among them), edits a user makes at DST, and a
 * reader that reads every file of DST (so relatime moves the atimes of whatever a killed run left). Now and then a
 * second run on a DST nested inside the first's (named through DST or through a bind mount of it) is started while the
 * first runs: it must be refused. After every
 * fifth run, one more is left to end. Every run that ends by itself must exit 0 and its report must agree with the
 * tree: every entry counted once, what it calls copied or identical is, and what --update kept as newer is a
 * complete version of the file (one SRC had, or a user's edit), never a half-written one. A final sync --delete
 * must leave 0 differences (and {@code compare --contents} must exit 0) and no temporaries. Every run keeps a state
 * ledger ({@code --state}, one DIR per mode): now and then a second run into a sibling DST with the same DIR is
 * started while the first runs (it must be refused), a ledger is damaged between runs, and a run is killed while it
 * puts its generation in force; no run may fail because of its ledger.
 * 50 runs in CI; {@code -Dspark-dcp.soak.runs=N} for a longer one, {@code -Dspark-dcp.soak.seed=S} to replay.
 */
class FaultInjectionSoakTest {
    private static final int RUNS = Integer.getInteger("spark-dcp.soak.runs", 50);
    private static final long SEED = Long.getLong("spark-dcp.soak.seed", System.nanoTime());
    private static final Path LAUNCHER = Path.of("submit-scripts", "spark-dcp").toAbsolutePath();
    private static final List<List<String>> MODES = List.of(List.of("copy"), List.of("copy", "--atomic"),
            List.of("copy", "--update"), List.of("sync"), List.of("sync", "--update"), List.of("sync", "--delete"),
            List.of("sync", "--delete", "--atomic"), List.of("sync", "--delete", "--update"));
    /** The first second after the epoch: the atime that once marked a half-written file. */
    private static final FileTime EPOCH_MARK = FileTime.from(Instant.ofEpochSecond(1));
    private static LoopMount mount;
    private static Path src;
    private static Path dst;
    private static Path state;
    private final Random random = new Random(SEED);
    private final ObjectMapper json = new ObjectMapper();
    /** Every complete content each path of DST may hold: the versions SRC had, and the edits made at DST. */
    private final Map<String, Set<ByteBuffer>> versions = new HashMap<>();

    @BeforeAll
    static void build() throws IOException {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.createWithoutReflink("soak", 1024);
        src = Files.createDirectory(mount.dir().resolve("src"));
        dst = Files.createDirectory(mount.dir().resolve("dst"));
        state = Files.createDirectory(mount.dir().resolve("state"));
    }

    @AfterAll
    static void unmount() {
        if (dstView != null) Commands.tryRun("umount", dstView.toString());
        if (mount != null) mount.close();
    }

    /** A bind mount of DST, made for the first nested run that names its DST through it. */
    private static Path dstView;

    /** Where a nested run goes: DST/name, or (half the time) the same directory through a bind mount of DST. */
    private Path nestedDestination(String name) throws IOException {
        if (random.nextBoolean()) return dst.resolve(name);
        if (dstView == null) {
            dstView = Files.createDirectory(mount.dir().resolve("dst-view"));
            Commands.run("mount", "--bind", dst.toString(), dstView.toString());
        }
        return dstView.resolve(name);
    }

    @Test
    void killedRunsWithChangesInBetweenEndInAnExactCopyAndNoRunReportsOrKeepsWhatIsNotThere(TestReporter reporter) throws Exception {
        buildTree();
        assertEquals(2_000, TreeFiles.everything(src).size() - 1, "a 2,000-entry tree");
        long start = System.nanoTime();
        List<String> full = List.of("sync", "--delete");
        Run first = run(full, Long.MAX_VALUE, false);
        long typicalMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        checkAgreement(first, full);
        int kills = 0, completed = 0, nestedRefused = 0, damaged = 0, killedAtSwap = 0;
        for (int i = 0; i < RUNS; i++) {
            changeSource(random.nextInt(9));
            changeDestination(random.nextInt(3));
            if (random.nextInt(6) == 0 && damageLedger()) damaged++;
            List<String> mode = MODES.get(random.nextInt(MODES.size()));
            int second = random.nextInt(10); // 0, 1: a nested run; 2, 3: a run sharing the state DIR; 4: killed at the ledger's swap
            // Killed within the time the last run that ended took: re-runs are quicker than the first copy.
            Run r = second == 4 ? runKilledAtSwap(mode) : run(mode, (long) (random.nextDouble() * typicalMillis * 0.9), second <= 1, second == 2 || second == 3);
            if (r.killedAtSwap()) killedAtSwap++;
            if (r.nestedRefused()) nestedRefused++;
            if (r.killed()) {
                kills++;
                readEveryFile(dst); // a backup scan or a user's cat over what the killed run left
            } else if (r.refusedForNested()) {
                nestedRefused++; // the nested run took its lock first: this one was refused, as it must be
            } else {
                completed++;
                checkAgreement(r, mode);
                typicalMillis = r.millis();
            }
            if (i % 5 == 4) { // and a run left to end after the kills, whose report is checked
                changeSource(random.nextInt(4));
                List<String> resumed = MODES.get(random.nextInt(MODES.size()));
                Run ended = run(resumed, Long.MAX_VALUE, false);
                checkAgreement(ended, resumed);
                typicalMillis = ended.millis();
                completed++;
            }
        }
        changeSource(8);
        Run last = run(full, Long.MAX_VALUE, false);
        checkAgreement(last, full);
        List<String> differences = TreeComparator.differences(src, dst);
        List<Path> temporaries = TreeFiles.everything(dst).stream().filter(p -> p.getFileName().toString().startsWith(".spark-dcp.")).toList();
        Commands.Result compare = Commands.tryRun(LAUNCHER.toString(), "compare", "--contents", src + "/", dst.toString());
        String figures = "seed " + SEED + ": " + RUNS + " runs, " + kills + " killed, " + completed + " completed (each checked), "
                + nestedRefused + " nested, enclosing or state-sharing runs refused, " + damaged + " ledgers damaged, " + killedAtSwap
                + " killed at the ledger's swap, then a final run: " + differences.size() + " differences, "
                + temporaries.size() + " temporaries; " + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start) + " s";
        reporter.publishEntry("soak", figures);
        Files.writeString(Path.of("target", "soak-figures.txt"), figures + "\n"); // for the figures in docs/benchmarks.md
        assertEquals(List.of(), differences, "seed " + SEED);
        assertEquals(List.of(), temporaries, "seed " + SEED);
        assertEquals(0, compare.exitCode(), "compare --contents, seed " + SEED + ":\n" + compare.stdout() + compare.stderr());
        assertTrue(kills >= RUNS / 4, "runs killed mid-way: " + kills + " of " + RUNS + " (seed " + SEED + ")");
    }

    private record Run(boolean killed, int exitCode, Path report, String output, boolean nestedRefused, long millis, boolean killedAtSwap) {
        Run(boolean killed, int exitCode, Path report, String output, boolean nestedRefused, long millis) {
            this(killed, exitCode, report, output, nestedRefused, millis, false);
        }

        /** The nested run started first and holds its DST: this run, above it, was refused (exit 2, nothing written). */
        boolean refusedForNested() {
            return exitCode == 2 && output.contains("holds a DST inside DST");
        }
    }

    /**
     * One launcher in a process group of its own, SIGKILLed (the whole group) after killAfterMillis. With nested, a
     * second launcher syncs one directory of SRC into its place inside DST while the first runs: it must be refused
     * (exit 2, naming the holder) whenever the first still runs when it ends.
     */
    private Run run(List<String> mode, long killAfterMillis, boolean nested) throws Exception {
        return run(mode, killAfterMillis, nested, false);
    }

    private Run run(List<String> mode, long killAfterMillis, boolean nested, boolean sharing) throws Exception {
        Path report = mount.dir().resolve("report.json");
        Path output = mount.dir().resolve("output.txt");
        Files.deleteIfExists(report);
        List<String> command = command(mode, report);
        // slowed, so that it still holds DST when the nested run tries
        if (nested || sharing) command.addAll(command.size() - 2, List.of("--max-ops", "500"));
        long started = System.nanoTime();
        Process p = start(command, output);
        boolean nestedRefused = nested && runNested(p) || sharing && runSharingState(p, stateOf(mode));
        long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        long waitMillis = killAfterMillis == Long.MAX_VALUE ? TimeUnit.MINUTES.toMillis(5) : Math.max(1, killAfterMillis - waited);
        boolean ended = p.waitFor(waitMillis, TimeUnit.MILLISECONDS);
        if (!ended) {
            Commands.tryRun("kill", "-KILL", "--", "-" + p.pid()); // setsid made the launcher its group's leader
            assertTrue(p.waitFor(1, TimeUnit.MINUTES), "killed");
            assertTrue(killAfterMillis != Long.MAX_VALUE, "a run that should end did not: " + Files.readString(output));
        }
        return new Run(!ended, ended ? p.exitValue() : -1, report, Files.readString(output), nestedRefused,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
    }

    /** The launcher's command for one run of mode, with its report and its mode's state ledger. */
    private static List<String> command(List<String> mode, Path report) {
        List<String> command = new ArrayList<>(List.of("setsid", LAUNCHER.toString()));
        command.addAll(mode);
        command.addAll(List.of("--report", report.toString(), "--state", stateOf(mode).toString(), src + "/", dst.toString()));
        return command;
    }

    /** A state DIR per mode: a ledger is another run's when the modes differ. */
    private static Path stateOf(List<String> mode) {
        return state.resolve(String.join("", mode).replace("--", "-"));
    }

    /**
     * A run that reaches the swap of its ledger's generation (all parts and the HEADER written) is SIGKILLed there,
     * with its whole process group; one that ends before it is a run that ended.
     */
    private Run runKilledAtSwap(List<String> mode) throws Exception {
        Path report = mount.dir().resolve("report.json");
        Path output = mount.dir().resolve("output.txt");
        Path paused = mount.dir().resolve("paused-at-swap");
        Files.deleteIfExists(report);
        Files.deleteIfExists(paused);
        ProcessBuilder b = new ProcessBuilder(command(mode, report)).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectErrorStream(true).redirectOutput(output.toFile());
        b.environment().put("JAVA_TOOL_OPTIONS", "-D" + "sparkdcp.test.state.pauseBeforeSwap" + "=" + paused);
        long started = System.nanoTime();
        Process p = b.start();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (!Files.exists(paused) && p.isAlive() && System.nanoTime() < deadline) Thread.sleep(20);
        boolean atSwap = Files.exists(paused) && p.isAlive();
        if (atSwap) {
            Commands.tryRun("kill", "-KILL", "--", "-" + p.pid());
            Files.deleteIfExists(paused);
        }
        assertTrue(p.waitFor(1, TimeUnit.MINUTES), "a run paused at its ledger's swap ended");
        return new Run(atSwap, atSwap ? -1 : p.exitValue(), report, Files.readString(output), false,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started), atSwap);
    }

    /**
     * While outer holds DST (and so its state DIR, taken before), a run into a sibling DST with the same --state DIR:
     * it must be refused (exit 2, naming the holder) whenever outer still runs when it ends.
     */
    private boolean runSharingState(Process outer, Path dir) throws Exception {
        String holder = awaitLock(dst, outer);
        if (holder == null) return false;
        Path output = mount.dir().resolve("sharing-output.txt");
        Process other = start(List.of("setsid", LAUNCHER.toString(), "sync", "--state", dir.toString(), src + "/",
                mount.dir().resolve("sibling").toString()), output);
        assertTrue(other.waitFor(5, TimeUnit.MINUTES), "the run sharing the state DIR ended");
        String said = Files.readString(output);
        // Held by the same process before the other run started and after it ended: held throughout.
        if (holder.equals(Flocks.exclusiveHolder(dst))) {
            assertEquals(2, other.exitValue(), "a run on the state DIR of a running run, seed " + SEED + ":\n" + said);
            assertTrue(said.contains("another spark-dcp run holds --state"), said);
        } else {
            assertTrue(other.exitValue() == 0 || other.exitValue() == 2, "the run sharing the state DIR, seed " + SEED + ":\n" + said);
        }
        return other.exitValue() == 2;
    }

    /** Damages one ledger in force, as a crash, a full disk or a hand would: false when there is none yet. */
    private boolean damageLedger() throws IOException {
        List<Path> parts = new ArrayList<>();
        List<Path> headers = new ArrayList<>();
        for (Path p : TreeFiles.everything(state)) {
            String name = p.getFileName().toString();
            if (!p.getParent().getFileName().toString().startsWith("state-")) continue;
            if (name.startsWith("part-") && Files.size(p) > 0) parts.add(p); // one emptied already: damaged
            if (name.equals("HEADER")) headers.add(p);
        }
        if (parts.isEmpty()) return false;
        Path part = parts.get(random.nextInt(parts.size()));
        switch (random.nextInt(4)) {
            case 0 -> Files.write(part, new byte[0]);
            case 1 -> {
                byte[] bytes = Files.readAllBytes(part);
                Files.write(part, java.util.Arrays.copyOf(bytes, random.nextInt(bytes.length)));
            }
            case 2 -> {
                byte[] bytes = Files.readAllBytes(part);
                bytes[random.nextInt(bytes.length)] ^= (byte) (1 + random.nextInt(255));
                Files.write(part, bytes);
            }
            default -> {
                if (headers.isEmpty()) Files.write(part, new byte[0]);
                else Files.delete(headers.get(random.nextInt(headers.size())));
            }
        }
        return true;
    }

    private boolean runNested(Process outer) throws Exception {
        String holder = awaitLock(dst, outer);
        if (holder == null) return false; // the run ended (or was killed) before it held DST: no nested run this time
        List<Path> dirs = directories(src);
        String name = dirs.get(random.nextInt(dirs.size())).getFileName().toString();
        Path output = mount.dir().resolve("nested-output.txt");
        Path into = nestedDestination(name);
        Process inner = start(List.of("setsid", LAUNCHER.toString(), "sync", "--delete", src.resolve(name) + "/", into.toString()), output);
        assertTrue(inner.waitFor(5, TimeUnit.MINUTES), "the nested run ended");
        String said = Files.readString(output);
        // Held by the same process before the nested run started and after it ended: held throughout.
        if (holder.equals(Flocks.exclusiveHolder(dst)))
            assertEquals(2, inner.exitValue(), "a run into " + into + " while a run holds DST, seed " + SEED + ":\n" + said);
        else assertTrue(inner.exitValue() == 0 || inner.exitValue() == 2, "the nested run, seed " + SEED + ":\n" + said);
        if (inner.exitValue() == 2) assertTrue(said.contains("holds"), said);
        return inner.exitValue() == 2;
    }

    /** The running process's pid once it holds an exclusive flock on dir; null if it ends first. */
    private static String awaitLock(Path dir, Process running) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        String pid = String.valueOf(running.pid()); // the launcher execs the JVM: one pid
        while (running.isAlive() && System.nanoTime() < deadline) {
            if (pid.equals(Flocks.exclusiveHolder(dir))) return pid;
            Thread.sleep(10);
        }
        return null;
    }


    private static Process start(List<String> command, Path output) throws IOException {
        return new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectErrorStream(true).redirectOutput(output.toFile()).start();
    }

    /** A run that ended by itself: exit 0, every entry counted once, and the tree is what the report claims. */
    private void checkAgreement(Run r, List<String> mode) throws IOException {
        String why = "mode " + mode + ", seed " + SEED + ":\n" + r.output();
        assertEquals(0, r.exitCode(), why);
        JsonNode report = json.readTree(r.report().toFile());
        assertEquals(0, report.get("failed").asLong(), why);
        long entries = TreeFiles.everything(src).size(); // the root included, as the listing counts it
        assertEquals(entries, report.get("entries_listed").asLong(), why);
        assertEquals(entries, report.get("copied").asLong() - report.get("links").asLong() + report.get("skipped").asLong()
                - report.get("links_skipped").asLong() + report.get("metadata_fixed").asLong() + report.get("kept_newer").asLong()
                + report.get("ledger_unchanged").asLong(), // what the state ledger proves unchanged is not looked at
                "each entry once: " + report);
        List<String> differences = new ArrayList<>(TreeComparator.differences(src, dst));
        if (!mode.contains("--delete")) // a copy keeps what SRC no longer has, and a killed --atomic run's temporaries
            differences.removeIf(d -> d.contains(": only_in_destination: "));
        if (mode.contains("--update")) differences.removeIf(this::keptNewerWhole);
        assertEquals(List.of(), differences, "what the report calls copied, identical or kept is: " + why);
        versions.replaceAll((path, contents) -> onlyCurrent(path));
    }

    /** A difference --update may leave: a regular file newer at DST that holds a complete version, SRC's or a user's. */
    private boolean keptNewerWhole(String difference) {
        String path = difference.substring(0, difference.indexOf(": "));
        Path s = src.resolve(path);
        Path d = dst.resolve(path);
        try {
            if (!Files.isRegularFile(s, LinkOption.NOFOLLOW_LINKS) || !Files.isRegularFile(d, LinkOption.NOFOLLOW_LINKS)) return false;
            boolean newer = Files.getLastModifiedTime(d, LinkOption.NOFOLLOW_LINKS).compareTo(Files.getLastModifiedTime(s, LinkOption.NOFOLLOW_LINKS)) > 0;
            return newer && versions.getOrDefault(path, Set.of()).contains(ByteBuffer.wrap(Files.readAllBytes(d)));
        } catch (IOException e) {
            return false;
        }
    }

    /** After a run that ended, the versions a path may hold from then on: what DST holds now (it was checked). */
    private Set<ByteBuffer> onlyCurrent(String path) {
        Set<ByteBuffer> now = new HashSet<>();
        try {
            Path s = src.resolve(path);
            Path d = dst.resolve(path);
            if (Files.isRegularFile(s, LinkOption.NOFOLLOW_LINKS)) now.add(ByteBuffer.wrap(Files.readAllBytes(s)));
            if (Files.isRegularFile(d, LinkOption.NOFOLLOW_LINKS)) now.add(ByteBuffer.wrap(Files.readAllBytes(d)));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return now;
    }

    // ---- the trees and their changes --------------------------------------------------------------

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

    /** Writes a SRC file, remembers its content as a version, and gives it a random atime (at times the epoch mark). */
    private void writeRandom(Path file, int size) throws IOException {
        byte[] data = new byte[size];
        random.nextBytes(data);
        Files.write(file, data);
        remember(file, data);
        FileTime atime = random.nextInt(4) == 0 ? EPOCH_MARK : FileTime.fromMillis(random.nextLong(1L << 41));
        Files.getFileAttributeView(file, BasicFileAttributeView.class).setTimes(null, atime, null);
    }

    private void remember(Path srcFile, byte[] data) {
        versions.computeIfAbsent(src.relativize(srcFile).toString(), p -> new HashSet<>()).add(ByteBuffer.wrap(data.clone()));
    }

    /** n random changes, as users make them between runs. */
    private void changeSource(int n) throws IOException {
        for (int i = 0; i < n; i++) {
            List<Path> dirs = directories(src);
            Path dir = dirs.get(random.nextInt(dirs.size()));
            List<Path> files = filesIn(dir);
            Path file = files.isEmpty() ? null : files.get(random.nextInt(files.size()));
            switch (file == null ? 3 : random.nextInt(9)) {
                case 0 -> writeRandom(file, random.nextInt(64 << 10));
                case 1 -> {
                    Files.write(file, new byte[]{(byte) random.nextInt()}, StandardOpenOption.APPEND);
                    remember(file, Files.readAllBytes(file));
                }
                case 2 -> Files.delete(file);
                case 3 -> writeRandom(dir.resolve("new" + random.nextInt(1_000_000)), random.nextInt(16 << 10));
                case 4 -> Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(random.nextBoolean() ? "rw-------" : "rwxr-xr-x"));
                case 5 -> Files.setLastModifiedTime(file, FileTime.fromMillis(1_500_000_000_000L + random.nextInt(1 << 30)));
                case 6 -> {
                    Path renamed = Files.move(file, dir.resolve("renamed" + random.nextInt(1_000_000)));
                    remember(renamed, Files.readAllBytes(renamed));
                }
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

    /** n edits a user makes at DST: appends, which leave the file newer than SRC's (what --update keeps). */
    private void changeDestination(int n) throws IOException {
        for (int i = 0; i < n; i++) {
            List<Path> dirs = directories(dst);
            if (dirs.isEmpty()) return;
            List<Path> files = filesIn(dirs.get(random.nextInt(dirs.size())));
            if (files.isEmpty()) continue;
            Path file = files.get(random.nextInt(files.size()));
            Files.write(file, ("edited at DST " + random.nextInt()).getBytes(), StandardOpenOption.APPEND);
            versions.computeIfAbsent(dst.relativize(file).toString(), p -> new HashSet<>()).add(ByteBuffer.wrap(Files.readAllBytes(file)));
        }
    }

    private static void readEveryFile(Path root) throws IOException {
        for (Path file : TreeFiles.regularFiles(root)) {
            try {
                Files.readAllBytes(file);
            } catch (IOException e) {
                // a temporary or a file the kill left unreadable: the reader goes on, as cat would
            }
        }
    }

    private static List<Path> filesIn(Path dir) {
        // Not the symlinks to files (regularFiles follows them): an edit through one changes another path's file.
        return TreeFiles.regularFiles(dir).stream().filter(f -> f.getParent().equals(dir) && !Files.isSymbolicLink(f)
                && !f.getFileName().toString().startsWith(".spark-dcp.")).toList();
    }

    private static List<Path> directories(Path root) throws IOException {
        try (var s = Files.list(root)) {
            return s.filter(p -> Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)).sorted().toList();
        }
    }

    private static void removeTree(Path dir) throws IOException {
        List<Path> all = new ArrayList<>(TreeFiles.everything(dir));
        java.util.Collections.reverse(all);
        for (Path p : all) Files.delete(p);
    }
}

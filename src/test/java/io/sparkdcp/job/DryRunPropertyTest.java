package io.sparkdcp.job;

import io.sparkdcp.copy.options.CopyModes;
import io.sparkdcp.copy.options.ItemLogTarget;
import io.sparkdcp.itemlog.ItemLine;
import io.sparkdcp.itemlog.ItemLogDir;
import io.sparkdcp.job.exec.JobOptions;
import io.sparkdcp.job.exec.LocalPhaseRunner;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.Stat;
import io.sparkdcp.testing.LocalCopy;
import io.sparkdcp.testing.LoopMount;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * "A dry run lists exactly what the run would do", as a property on XFS: both trees are changed at random in
 * every kind a sync fixes (data, size, mtime, mode, owner, xattrs, ACLs, project IDs, PROJINHERIT, inode flags
 * and locks, hard links made and split, symlink targets, types, entries new or gone on either side, and with
 * --contents same-size bytes with the mtime put back), then {@code sync --delete --dry-run --log} and the real
 * {@code sync --delete --log}, both with --log-skipped: their item logs are equal line for line (action, type,
 * path and, for a fixed entry, the kinds set), and the dry run's own list of entries to fix names the same
 * kinds. The dry run leaves every stat of both trees as it was, ctime and atime included ({@link #stats}).
 *
 * <p>Not generated: one DST inode whose names SRC holds on two or more inodes (a name split from its links at
 * SRC, given another type there or linked there to another file, or a name linked at DST to another file). Each name then has more links at DST than at SRC, so the run replaces
 * the name it meets first, and keeps another whose inode that left with no more names than its SRC inode has:
 * which names depends on the order its tasks run in, so no dry run can list them (it lists every such name as
 * copied; the tree the run leaves is the same either way). Links made at SRC to a name of its own, links split
 * at DST, and linked names removed on either side are generated.
 *
 * <p>The changes come from {@link SyncMakesIdenticalPropertyTest.Mutator}, which draws only what it can carry
 * out on the tree as it stands, and a few of this test's own. Seeded: any failure, an exception too, names its
 * seed; {@code -Ddryprop.seed=N} replays that one, {@code -Ddryprop.pairs=N} runs N from there. Seeds that once
 * failed stay in {@link #FIXED_SEEDS}.
 */
class DryRunPropertyTest {
    private static final long FIRST_SEED = 20261204L;
    private static final int PAIRS = 10;
    private static final int ROUNDS = 2;
    private static final long[] FIXED_SEEDS = {20261205L, 20261208L, 40000010L};
    private static final int MUTATOR_KINDS = 15;
    /** The Mutator's kinds that give a name an inode of its own, and that link a name to another file. */
    private static final int SPLIT = 0, JOIN = 1;
    /** The Mutator's kind that puts another type at a name. */
    private static final int TYPE = 9;

    private static LoopMount mount;

    @BeforeAll
    static void mount() {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.create("dryprop", LoopMount.MIN_SIZE_MIB);
    }

    @AfterAll
    static void unmount() {
        if (mount != null) mount.close();
    }

    @Test
    void dryRunLogsWhatTheRunLogs() {
        String only = System.getProperty("dryprop.seed");
        long first = only != null ? Long.parseLong(only) : FIRST_SEED;
        int pairs = Integer.getInteger("dryprop.pairs", only != null ? 1 : PAIRS);
        LongStream seeds = LongStream.range(first, first + pairs);
        if (only == null) seeds = LongStream.concat(LongStream.of(FIXED_SEEDS), seeds);
        seeds.forEach(DryRunPropertyTest::checkNamingTheSeed);
    }

    private static void checkNamingTheSeed(long seed) {
        try {
            checkOnePair(seed);
        } catch (AssertionError | Exception e) {
            throw new AssertionError("seed " + seed + " (-Ddryprop.seed=" + seed + " replays it): " + e.getMessage(), e);
        }
    }

    private static void checkOnePair(long seed) throws IOException {
        Random random = new Random(seed);
        boolean contents = random.nextBoolean();
        Path pair = Files.createTempDirectory(mount.dir(), "seed" + seed + "-"); // a fixed seed may come round again
        Path src = Files.createDirectory(pair.resolve("src"));
        Path dst = Files.createDirectory(pair.resolve("dst"));
        LocalCopy sync = LocalCopy.syncDefaults().withModes(CopyModes.of(CopyModes.Mode.SYNC).with(CopyModes.Mode.CONTENTS, contents))
                .withBatchFiles(1 + random.nextInt(8));
        new SyncMakesIdenticalPropertyTest.Mutator(random, src, true, contents).build(20 + random.nextInt(20));
        assertEquals(List.of(), sync.sync(src, dst, false).counts().failures(), "first sync");
        for (int round = 0; round < ROUNDS; round++) {
            List<String> changes = new ArrayList<>();
            for (int i = 0, n = 1 + random.nextInt(10); i < n; i++) {
                boolean source = random.nextBoolean();
                String change = change(random, source ? src : dst, source, contents);
                if (change != null) changes.add((source ? "SRC " : "DST ") + change);
            }
            String what = "contents " + contents + ", round " + round + ", after " + changes;
            JobOptions options = sync.jobOptions(src, dst);
            String dryLog = pair.resolve("dry-log" + round).toString();
            String runLog = pair.resolve("run-log" + round).toString();
            Map<String, Stat> srcBefore = stats(src);
            Map<String, Stat> dstBefore = stats(dst);
            SyncPreview preview = ItemLogDir.logged(dryLog, () -> DryRuns.onThreads(logging(options, dryLog), true, true));
            assertEquals(Map.of(), changed(srcBefore, stats(src)), what + ": SRC after the dry run");
            assertEquals(Map.of(), changed(dstBefore, stats(dst)), what + ": DST after the dry run");
            ItemLogDir.logged(runLog, () -> new CopyJob(logging(options, runLog), new LocalPhaseRunner(2), line -> {}).deleting(true).run());
            List<String> run = lines(ItemLogDir.read(runLog));
            assertEquals(run, lines(ItemLogDir.read(dryLog)), what + ": the dry run's log against the run's");
            List<String> fixedByRun = run.stream().filter(l -> l.startsWith("fixed\t")).map(l -> l.substring(l.indexOf('\t', 6) + 1)).sorted().toList();
            List<String> fixedByPreview = preview.fixMetadata().stream()
                    .map(f -> PathBytes.display(f.entry().path()) + (f.kinds().isEmpty() ? "" : "\t" + ItemLine.words(f.kinds()))).sorted().toList();
            assertEquals(fixedByRun, fixedByPreview, what + ": the dry run's list to fix");
        }
    }

    /** One change from the Mutator's kinds or this test's own, each drawn only where it can be made; what it did, or null. */
    private static String change(Random random, Path root, boolean source, boolean contents) throws IOException {
        SyncMakesIdenticalPropertyTest.Mutator mutator = new SyncMakesIdenticalPropertyTest.Mutator(random, root, source, contents);
        for (int attempt = 0; attempt < 10; attempt++) {
            // The Mutator's 15 kinds (the last: same-size bytes, the mtime put back, which only --contents finds), and two more.
            int kind = random.nextInt(MUTATOR_KINDS + 2);
            if (kind == (source ? SPLIT : JOIN)) continue; // see the class comment: names of one DST inode race in the run
            String done = (kind == TYPE || kind == JOIN) && source ? mutator.mutate(kind, p -> !linkedFile(p))
                    : kind < MUTATOR_KINDS ? mutator.mutate(kind) : kind == MUTATOR_KINDS ? mtimeOnly(random, root) : otherTarget(random, root);
            if (done != null) return done;
        }
        return null;
    }

    /** An mtime moved, nothing else. */
    private static String mtimeOnly(Random random, Path root) throws IOException {
        Path p = pickUnlocked(random, root, q -> true);
        if (p == null) return null;
        long sec = 1_500_000_000L + random.nextInt(100_000_000);
        int nsec = random.nextInt(1_000_000_000);
        at(p, (dir, name) -> Posix.lutimensAt(dir, name, sec, nsec, sec, nsec));
        return "mtime of " + root.relativize(p);
    }

    /** A symlink pointing elsewhere, its length the same or not. */
    private static String otherTarget(Random random, Path root) throws IOException {
        Path p = pickUnlocked(random, root, Files::isSymbolicLink);
        if (p == null) return null;
        int length = Files.readSymbolicLink(p).toString().length();
        Files.delete(p);
        Files.createSymbolicLink(p, Path.of(random.nextBoolean() ? "t".repeat(length) : "other" + random.nextInt(100)));
        return "target of " + root.relativize(p);
    }

    /** An entry (the root aside) that neither it nor a directory above it is immutable or append-only, or null. */
    private static Path pickUnlocked(Random random, Path root, java.util.function.Predicate<Path> which) throws IOException {
        List<Path> all;
        try (Stream<Path> walk = Files.walk(root)) {
            all = walk.filter(q -> !q.equals(root)).filter(which).filter(q -> unlocked(root, q)).sorted().toList();
        }
        return all.isEmpty() ? null : all.get(random.nextInt(all.size()));
    }

    private static boolean linkedFile(Path p) {
        Stat s = Posix.lstat(PathBytes.of(p.toString()));
        return s.type() == FileType.FILE && s.nlink() > 1;
    }

    private static boolean unlocked(Path root, Path p) {
        for (Path q = p; q != null && !q.equals(root); q = q.getParent())
            if (Posix.lstat(PathBytes.of(q.toString())).locks() != 0) return false;
        return true;
    }

    private static void at(Path p, java.util.function.BiConsumer<Fd, byte[]> call) {
        try (Fd dir = Posix.open(PathBytes.of(p.getParent().toString()), Linux.O_RDONLY | Linux.O_DIRECTORY)) {
            call.accept(dir, PathBytes.of(p.getFileName().toString()));
        }
    }

    /** Every line but a failure's call and message (the dry run makes no call), sorted. */
    private static List<String> lines(List<ItemLine> lines) {
        return lines.stream().map(l -> l.action().equals("failed") ? "failed\t" + l.what() + "\t" + PathBytes.display(l.path()) : l.format())
                .sorted().toList();
    }

    /** The options logging each entry, skipped ones too, in dir. */
    private static JobOptions logging(JobOptions options, String dir) {
        return options.withCopy(options.copy().withItemLog(new ItemLogTarget(dir, true, PathBytes.EMPTY)));
    }

    /** The entries whose stat is not what it was (gone, new or changed): before and after. */
    private static Map<String, String> changed(Map<String, Stat> before, Map<String, Stat> after) {
        Map<String, String> out = new TreeMap<>();
        java.util.Set<String> paths = new java.util.TreeSet<>(before.keySet());
        paths.addAll(after.keySet());
        for (String p : paths) if (!java.util.Objects.equals(before.get(p), after.get(p))) out.put(p, before.get(p) + " -> " + after.get(p));
        return out;
    }

    /**
     * Every entry's lstat under root by path, but for two fields nothing of the dry run's moves: blocks (XFS trims a
     * file's preallocation past its end on its own, a while after it was written) and a symlink's atime, which
     * reading its target moves, in the run as in its dry run.
     */
    private static Map<String, Stat> stats(Path root) throws IOException {
        Map<String, Stat> out = new TreeMap<>();
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : all.toList()) {
                Stat s = Posix.lstat(PathBytes.of(p.toString()));
                boolean symlink = s.type() == FileType.SYMLINK;
                out.put(root.relativize(p).toString(), s.toBuilder().blocks(0)
                        .atime(symlink ? 0 : s.atimeSec(), symlink ? 0 : s.atimeNsec()).build());
            }
        }
        return out;
    }
}

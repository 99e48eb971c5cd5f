package io.sparkdcp.job;

import io.sparkdcp.copy.ItemLog;
import io.sparkdcp.copy.options.CopyModes;
import io.sparkdcp.copy.options.ItemLogTarget;
import io.sparkdcp.itemlog.ItemLine;
import io.sparkdcp.itemlog.ItemLogDir;
import io.sparkdcp.job.exec.JobOptions;
import io.sparkdcp.job.exec.LocalPhaseRunner;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.FsXattr;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.spark.SparkPhaseRunner;
import io.sparkdcp.testing.LocalCopy;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.TreeComparator;
import io.sparkdcp.walk.Entry;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiConsumer;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The property behind the one {@link io.sparkdcp.copy.decision.Decision}: on random pairs of trees on XFS,
 * {@code sync --delete --dry-run} (half of them with --update) and {@code copy --dry-run} list, entry
 * for entry, what the real run then copies, fixes and deletes (its itemized log), count as unchanged
 * what it skips, and refuse what it fails. The trees hold files,
 * directories, symlinks, FIFOs and devices with random modes, owners and times; the destination is
 * an exact copy then changed at random (metadata, sizes, same-size contents, types, symlink targets
 * of the same length, entries added and removed on either side, inode flags: immutable and
 * append-only on files and directories, nodump, noatime, nodefrag on directories). Not generated here: xattrs,
 * ACLs, project IDs, flags other than the locks of files, --contents and hard links, which
 * {@link DryRunPropertyTest} changes.
 *
 * <p>The same dry run ({@link PreviewJob}) with its listings on the executors (--walk distributed on local
 * Spark) must list the same, in the same order, and log the same lines (every other pair).
 *
 * <p>Seeded: a failure names its seed; {@code -Dsync.seed=N} runs that one tree pair alone.
 */
class SyncDryRunMatchesRunTest {
    private static final int TREES = 30;
    private static final int ENTRIES = 50;
    private static final int[] OWNERS = {0, 1000, 1234};

    private static LoopMount mount;
    private static JavaSparkContext sc;

    @BeforeAll
    static void mount() {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.create("dryrun", LoopMount.MIN_SIZE_MIB);
        sc = new JavaSparkContext(new SparkConf().setAppName("spark-dcp-test").setMaster("local[2]")
                .set("spark.ui.enabled", "false").set("spark.speculation", "false"));
    }

    @AfterAll
    static void unmount() {
        if (sc != null) sc.stop();
        if (mount != null) mount.close();
    }

    @Test
    void dryRunListsWhatTheRunDoes() throws IOException {
        String only = System.getProperty("sync.seed");
        long first = only != null ? Long.parseLong(only) : 20261201L;
        int trees = only != null ? 1 : TREES;
        for (long seed = first; seed < first + trees; seed++) checkOnePair(seed);
    }

    private static void checkOnePair(long seed) throws IOException {
        Random random = new Random(seed);
        Path src = Files.createDirectory(mount.dir().resolve("src" + seed));
        Path dst = mount.dir().resolve("dst" + seed);
        build(src, random);
        // Every third pair is a copy (copy --dry-run), and the rest half with --update.
        boolean copy = seed % 3 == 0;
        CopyModes modes = CopyModes.COPY.with(CopyModes.Mode.SYNC, !copy).with(CopyModes.Mode.ATOMIC, random.nextBoolean()).with(CopyModes.Mode.UPDATE, !copy && random.nextBoolean());
        LocalCopy sync = LocalCopy.syncDefaults().withModes(modes).withBatchFiles(1 + random.nextInt(20));
        Files.createDirectory(dst);
        LocalCopy first = LocalCopy.syncDefaults().withModes(CopyModes.of(CopyModes.Mode.SYNC).with(CopyModes.Mode.ATOMIC, modes.atomic()));
        assertEquals(List.of(), first.sync(src, dst, false).counts().failures(), "seed " + seed + ": first sync");
        Set<String> sameSizeRewrites = new TreeSet<>();
        for (int i = 0, n = 1 + random.nextInt(15); i < n; i++) change(random.nextBoolean() ? src : dst, random, sameSizeRewrites);

        JobOptions options = sync.withThreadsPerTask(1 + random.nextInt(3)).jobOptions(src, dst);
        String dryLog = mount.dir().resolve("dry-log" + seed).toString(), runLog = mount.dir().resolve("log" + seed).toString();
        SyncPreview preview = ItemLogDir.logged(dryLog, () -> DryRuns.onThreads(logging(options, dryLog), !copy, true));
        SyncPreview onExecutors = null;
        String executorsLog = mount.dir().resolve("executors-log" + seed).toString();
        if (seed % 2 == 0) { // half the pairs, copies and syncs among them: Spark's jobs are slower than the trees are big
            try (SparkPhaseRunner runner = new SparkPhaseRunner(sc)) {
                onExecutors = ItemLogDir.logged(executorsLog, () -> DryRuns.onExecutors(logging(options, executorsLog), runner, !copy, true));
            }
        }
        JobOptions run = logging(options, runLog);
        CopyReport report = ItemLogDir.logged(runLog, () -> copy ? new CopyJob(run, new LocalPhaseRunner(3), line -> {}).run()
                : new CopyJob(run, new LocalPhaseRunner(3), line -> {}).deleting(true).run());
        Items done = new Items(ItemLogDir.read(runLog));

        String context = "seed " + seed + " (" + modes + ", files in flight " + options.threadsPerTask() + ")";
        if (onExecutors != null) assertSamePreview(preview, onExecutors, context + ", on the executors");
        // Without --delete, a directory against a non-directory is refused by both.
        Set<String> refused = failedPaths(preview.refused());
        assertEquals(refused, withoutOrphans(refused, report.counts().failures()), context + ": failures " + report.counts().failures());
        // The orphans the run tried and failed are not copied: the dry run lists them as the run copies them otherwise.
        Set<String> orphans = failedPaths(report.counts().failures());
        orphans.removeAll(withoutOrphans(refused, report.counts().failures()));
        Set<String> toCopy = paths(preview.copy());
        toCopy.removeAll(orphans);
        assertEquals(toCopy, done.paths(ItemLog.Action.COPIED), context + ": copied");
        assertEquals(paths(fixed(preview)), done.paths(ItemLog.Action.FIXED), context + ": metadata fixed");
        assertEquals(paths(preview.delete()), done.paths(ItemLog.Action.DELETED), context + ": deleted");
        assertEquals(preview.unchanged(), done.paths(ItemLog.Action.SKIPPED).size(), context + ": unchanged");
        assertEquals(paths(preview.keptNewer()), done.paths(ItemLog.Action.KEPT_NEWER), context + ": kept, newer at DST");
        assertEquals(preview.keptNewer().size(), report.counts().keptNewer(), context + ": kept, newer at DST");
        // The dry run logs the lines the run then logs, kinds fixed included (but for the calls of failures: the dry run makes none).
        assertEquals(done.entries(orphans), new Items(ItemLogDir.read(dryLog)).entries(orphans), context + ": the dry run's log");
        if (onExecutors != null)
            assertEquals(done.entries(orphans), new Items(ItemLogDir.read(executorsLog)).entries(orphans), context + ": the dry run's log, on the executors");
        if (copy) return; // a copy leaves what SRC lacks at DST
        Set<String> newer = paths(preview.keptNewer());
        // What is protected at DST (locked there, not at SRC) stays as it was, and so does what it holds.
        Set<String> kept = new TreeSet<>(newer);
        report.counts().failures().forEach(f -> kept.add(f.path()));
        List<String> differences = new ArrayList<>(TreeComparator.differences(src, dst).stream()
                .filter(d -> !sameSizeRewrites.contains(d.substring(0, d.indexOf(": data: ") + 1)))
                .filter(d -> !keptOrBeneath(d.substring(0, Math.max(0, d.indexOf(':'))), kept)).toList());
        try (Stream<Path> all = Files.walk(src)) {
            for (Path p : all.toList()) {
                String rel = src.relativize(p).toString();
                Path q = dst.resolve(rel);
                if (!keptOrBeneath(rel, kept) && Files.exists(q, LinkOption.NOFOLLOW_LINKS) && flags(p) != flags(q))
                    differences.add(rel + ": flags " + Integer.toHexString(flags(p)) + " at SRC, " + Integer.toHexString(flags(q)) + " at DST");
            }
        }
        assertEquals(List.of(), differences, context + ": the sync's result, but for files rewritten at their size and times");
    }

    private static boolean keptOrBeneath(String path, Set<String> kept) {
        for (String p = path; !p.isEmpty(); p = p.contains("/") ? p.substring(0, p.lastIndexOf('/')) : "")
            if (kept.contains(p)) return true;
        return false;
    }

    // ---- random trees ---------------------------------------------------------------------------

    private static void build(Path root, Random random) throws IOException {
        List<Path> directories = new ArrayList<>(List.of(root));
        for (int i = 0; i < ENTRIES; i++) {
            Path parent = directories.get(random.nextInt(directories.size()));
            Path p = create(parent.resolve("e" + i), random);
            if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) directories.add(p);
        }
        // Children before parents, so a directory's times are set after its entries are made.
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) setMetadata(p, random);
        }
        // Flags last, locks among them, as a user sets them on a finished tree.
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : all.toList()) if (random.nextInt(5) == 0) setFlags(p, randomFlags(p, random));
        }
    }

    /** Files get only locks and nodump here (the dry run reads other flags of directories only); directories more. */
    private static int randomFlags(Path p, Random random) {
        int[] choices = Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)
                ? new int[]{Linux.FS_XFLAG_IMMUTABLE, Linux.FS_XFLAG_APPEND, Linux.FS_XFLAG_NODUMP, Linux.FS_XFLAG_NOATIME,
                        Linux.FS_XFLAG_NODEFRAG | Linux.FS_XFLAG_IMMUTABLE, 0}
                : new int[]{Linux.FS_XFLAG_IMMUTABLE, Linux.FS_XFLAG_APPEND, Linux.FS_XFLAG_IMMUTABLE | Linux.FS_XFLAG_APPEND, 0};
        return choices[random.nextInt(choices.length)];
    }

    private static boolean lockable(Path p) {
        return Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS) || Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS);
    }

    /** The kept flags of a file or directory (0 for other types). */
    private static int flags(Path p) {
        if (!lockable(p)) return 0;
        try (Fd fd = Posix.open(bytes(p), Linux.O_RDONLY | Linux.O_NOFOLLOW | Linux.O_NONBLOCK)) {
            return Posix.getFsXattr(fd).keptFlags();
        }
    }

    /** Sets the kept flags of a file or directory to flags (others as they are). */
    private static void setFlags(Path p, int flags) {
        if (!lockable(p)) return;
        try (Fd fd = Posix.open(bytes(p), Linux.O_RDONLY | Linux.O_NOFOLLOW | Linux.O_NONBLOCK)) {
            FsXattr now = Posix.getFsXattr(fd);
            Posix.setFsXattr(fd, new FsXattr((now.xflags() & ~FsXattr.KEPT_FLAGS) | flags, now.extsize(), 0, now.projid(), now.cowextsize()));
        }
    }

    /** The kept flags of every file and directory in the tree, which a test's changes first clear, by path. */
    private static Map<Path, Integer> unlockAll(Path root) throws IOException {
        Map<Path, Integer> flags = new HashMap<>();
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : all.toList()) {
                int f = flags(p);
                if (f == 0) continue;
                flags.put(p, f);
                setFlags(p, f & ~FsXattr.LOCKS);
            }
        }
        return flags;
    }

    private static void relock(Map<Path, Integer> flags) {
        flags.forEach((p, f) -> {
            if (Files.exists(p, LinkOption.NOFOLLOW_LINKS)) setFlags(p, f);
        });
    }

    /** A random entry of a random type at p. */
    private static Path create(Path p, Random random) throws IOException {
        switch (random.nextInt(10)) {
            case 0, 1 -> Files.createDirectory(p);
            case 2, 3 -> Files.createSymbolicLink(p, Path.of("t".repeat(1 + random.nextInt(4))));
            case 4 -> at(p, (dir, name) -> Posix.mknodat(dir, name, Linux.S_IFIFO | 0644, 0));
            case 5 -> at(p, (dir, name) -> Posix.mknodat(dir, name, Linux.S_IFCHR | 0600, (1 << 8) | (3 + random.nextInt(2))));
            default -> Files.write(p, bytes(random.nextInt(4), random));
        }
        return p;
    }

    private static void setMetadata(Path p, Random random) {
        boolean symlink = Files.isSymbolicLink(p);
        int owner = OWNERS[random.nextInt(OWNERS.length)];
        at(p, (dir, name) -> {
            Posix.lchownAt(dir, name, owner, owner);
            if (!symlink) Posix.chmodAt(dir, name, 0600 | random.nextInt(0200));
            Posix.lutimensAt(dir, name, 1_600_000_000L, 0, 1_600_000_000L + random.nextInt(3), random.nextInt(2));
        });
    }

    /** One random change to a tree: its parent directory's times move as they would. */
    private static void change(Path root, Random random, Set<String> sameSizeRewrites) throws IOException {
        List<Path> entries;
        try (Stream<Path> all = Files.walk(root)) {
            entries = all.toList();
        }
        Path p = entries.get(random.nextInt(entries.size()));
        Map<Path, Integer> flags = unlockAll(root); // a user who changes a locked entry unlocks it first
        if (random.nextInt(10) == 0) flags.put(p, randomFlags(p, random)); // its flags changed, on either side
        else changeUnlocked(root, p, random, sameSizeRewrites);
        relock(flags);
    }

    private static void changeUnlocked(Path root, Path p, Random random, Set<String> sameSizeRewrites) throws IOException {
        boolean isRoot = p.equals(root);
        boolean directory = Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS);
        switch (random.nextInt(9)) {
            case 0 -> setMetadata(p, random);
            case 1 -> {
                if (!Files.isSymbolicLink(p)) at(p, (dir, name) -> Posix.chmodAt(dir, name, 0600 | random.nextInt(0200)));
            }
            case 2 -> {
                if (directory) create(p.resolve("n" + random.nextInt(1000)), random);
                else if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) Files.write(p, bytes(4 + random.nextInt(3), random));
            }
            case 3 -> { // same size, same times: a sync that trusts size and mtime keeps it
                if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) && Files.size(p) > 0) {
                    long mtime = Posix.lstat(bytes(p)).mtimeSec();
                    int nsec = Posix.lstat(bytes(p)).mtimeNsec();
                    Files.write(p, bytes((int) Files.size(p), random));
                    sameSizeRewrites.add(root.relativize(p) + ":");
                    at(p, (dir, name) -> Posix.lutimensAt(dir, name, 1_600_000_000L, 0, mtime, nsec));
                }
            }
            case 4 -> { // a symlink to another target of the same length
                if (Files.isSymbolicLink(p)) {
                    int length = Files.readSymbolicLink(p).toString().length();
                    Files.delete(p);
                    Files.createSymbolicLink(p, Path.of("u".repeat(length)));
                }
            }
            case 5, 6 -> { // another type in its place, or gone
                if (isRoot) return;
                remove(p);
                if (random.nextBoolean()) create(p, random);
            }
            default -> { // a new entry
                Path parent = directory ? p : p.getParent();
                create(parent.resolve("x" + random.nextInt(1000)), random);
            }
        }
    }

    private static void remove(Path p) throws IOException {
        try (Stream<Path> all = Files.walk(p)) {
            for (Path q : all.sorted(Comparator.reverseOrder()).toList()) Files.delete(q);
        }
    }

    private static byte[] bytes(int n, Random random) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    private static byte[] bytes(Path p) {
        return PathBytes.of(p.toString());
    }

    /** Runs call on p's parent directory and p's name (calls that work by name, without following symlinks). */
    private static void at(Path p, BiConsumer<Fd, byte[]> call) {
        try (Fd dir = Posix.open(bytes(p.getParent()), Linux.O_RDONLY | Linux.O_DIRECTORY)) {
            call.accept(dir, p.getFileName().toString().getBytes(StandardCharsets.UTF_8));
        }
    }

    // ---- what was done ------------------------------------------------------------------------

    /** The same lists in the same order, the same counts: what the two dry runs print is then the same. */
    private static void assertSamePreview(SyncPreview driver, SyncPreview executors, String context) {
        assertEquals(displays(driver.copy()), displays(executors.copy()), context + ": copy");
        assertEquals(driver.fixMetadata().stream().map(f -> f.entry().display() + " " + f.kinds()).toList(),
                executors.fixMetadata().stream().map(f -> f.entry().display() + " " + f.kinds()).toList(), context + ": fix metadata");
        assertEquals(displays(driver.delete()), displays(executors.delete()), context + ": delete");
        assertEquals(driver.refused(), executors.refused(), context + ": refused");
        assertEquals(driver.unchanged(), executors.unchanged(), context + ": unchanged");
        assertEquals(displays(driver.keptNewer()), displays(executors.keptNewer()), context + ": kept newer");
        assertEquals(driver.sourceErrors(), executors.sourceErrors(), context + ": source errors");
        assertEquals(driver.deletionRefused(), executors.deletionRefused(), context + ": deletion refused");
        assertEquals(SyncPreview.NotShown.NONE, executors.notShown(), context + ": all listed");
    }

    private static List<Entry> fixed(SyncPreview preview) {
        return preview.fixMetadata().stream().map(SyncPreview.Fix::entry).toList();
    }

    private static List<String> displays(List<Entry> entries) {
        return entries.stream().map(Entry::display).toList();
    }

    /**
     * The run's failed paths, less those beneath a directory the dry run refused that failed only because that
     * directory was never made (ENOENT): whether the run still tries them depends on how its tasks interleave
     * (copy batches may start before their directory's refusal is known), and either way it exits 1 for it.
     */
    private static Set<String> withoutOrphans(Set<String> refused, List<io.sparkdcp.posix.Failure> failures) {
        Set<String> out = new TreeSet<>();
        for (io.sparkdcp.posix.Failure f : failures) {
            boolean orphan = "ENOENT".equals(f.errno()) && refused.stream().anyMatch(r -> f.path().startsWith(r + "/"));
            if (!orphan) out.add(f.path());
        }
        return out;
    }

    private static Set<String> failedPaths(List<io.sparkdcp.posix.Failure> failures) {
        Set<String> out = new TreeSet<>();
        for (io.sparkdcp.posix.Failure f : failures) out.add(f.path());
        return out;
    }

    private static Set<String> paths(List<Entry> entries) {
        Set<String> out = new TreeSet<>();
        for (Entry e : entries) out.add(e.display());
        return out;
    }

    /** The options logging each entry, skipped ones too, in dir. */
    private static JobOptions logging(JobOptions options, String dir) {
        return options.withCopy(options.copy().withItemLog(new ItemLogTarget(dir, true, PathBytes.EMPTY)));
    }

    /** A run's itemized log, as read back. */
    private record Items(List<ItemLine> lines) {
        Set<String> paths(ItemLog.Action action) {
            Set<String> out = new TreeSet<>();
            for (ItemLine line : lines) if (line.action().equals(action.word())) out.add(PathBytes.display(line.path()));
            return out;
        }

        /** Action, type and path of each line, and the kinds a fixed one names; not those of the paths left out. */
        Set<String> entries(Set<String> leftOut) {
            Set<String> out = new TreeSet<>();
            for (ItemLine line : lines)
                if (!leftOut.contains(PathBytes.display(line.path()))) out.add(line.action() + " " + line.what() + " " + PathBytes.display(line.path()) + (line.action().equals("fixed") ? " " + line.details() : ""));
            return out;
        }
    }
}

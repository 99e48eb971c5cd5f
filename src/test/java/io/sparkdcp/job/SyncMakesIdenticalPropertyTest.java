package io.sparkdcp.job;

import io.sparkdcp.copy.options.CopyModes;
import io.sparkdcp.job.exec.JobOptions;
import io.sparkdcp.job.exec.LocalPhaseRunner;
import io.sparkdcp.job.listing.ListingOptions;
import io.sparkdcp.job.listing.WalkMode;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.FsXattr;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.Stat;
import io.sparkdcp.report.CompareReport;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.job.CopyJob;
import io.sparkdcp.spark.SparkPhaseRunner;
import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.LocalCopy;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.Seeds;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The property behind "sync makes DST identical": on random trees on XFS, SRC and DST are changed at
 * random (hard-link splits and joins, inode flags, xattrs, ACLs, project IDs, modes, owners, types
 * file/directory/symlink, sparse files, and with --contents same-size data whose mtime is restored),
 * then {@code sync --delete} runs and {@code compare} (with --contents where the sync had it) must find
 * nothing, twice per tree pair. Immutable and append-only are set on SRC only (a sync then carries them),
 * and nothing locked, or beneath a locked directory, is changed afterwards on either side: what a sync
 * does to protected DST entries is a rule of its own.
 *
 * <p>Seeded: a failure, an exception too, names its seed; {@code -Dsyncid.seed=N} replays that pair alone and
 * {@code -Dsyncid.pairs=N} runs N pairs from there (longer runs). The last pair runs on local Spark
 * (the executors' walk, plan and compare).
 */
class SyncMakesIdenticalPropertyTest {
    private static final int PAIRS = 12;
    private static final int ROUNDS = 2;
    private static final int[] OWNERS = {0, 1000, 1234};
    private static final int[] FLAGS = {Linux.FS_XFLAG_NODUMP, Linux.FS_XFLAG_NOATIME, Linux.FS_XFLAG_SYNC, Linux.FS_XFLAG_NODEFRAG};

    private static LoopMount mount;

    @BeforeAll
    static void mount() {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.create("syncprop", LoopMount.MIN_SIZE_MIB);
    }

    @AfterAll
    static void unmount() {
        if (mount != null) mount.close();
    }

    @Test
    void syncDeleteThenCompareFindsNothing() throws IOException {
        String only = System.getProperty("syncid.seed");
        long first = only != null ? Long.parseLong(only) : 20261202L;
        int pairs = Integer.getInteger("syncid.pairs", only != null ? 1 : PAIRS);
        for (long seed = first; seed < first + pairs; seed++) {
            long pair = seed;
            boolean onSpark = only == null && seed == first + pairs - 1;
            Seeds.naming(Seeds.context(seed, "syncid.seed"), () -> checkOnePair(pair, onSpark));
        }
    }

    private static void checkOnePair(long seed, boolean onSpark) throws IOException {
        Random random = new Random(seed);
        boolean contents = random.nextBoolean();
        Path src = Files.createDirectory(mount.dir().resolve("src" + seed));
        Path dst = Files.createDirectory(mount.dir().resolve("dst" + seed));
        LocalCopy sync = LocalCopy.syncDefaults().withModes(CopyModes.of(CopyModes.Mode.SYNC).with(CopyModes.Mode.CONTENTS, contents).with(CopyModes.Mode.ATOMIC, random.nextBoolean()))
                .withBatchFiles(1 + random.nextInt(8));
        String context = Seeds.context(seed, "syncid.seed") + ", contents " + contents;
        new Mutator(random, src, true, contents).build(25 + random.nextInt(25));
        assertEquals(List.of(), sync.sync(src, dst, false).counts().failures(), context + ": first sync");
        for (int round = 0; round < ROUNDS; round++) {
            List<String> changes = new ArrayList<>();
            for (int i = 0, n = 1 + random.nextInt(12); i < n; i++) {
                boolean source = random.nextBoolean();
                String change = new Mutator(random, source ? src : dst, source, contents).mutate();
                if (change != null) changes.add((source ? "SRC " : "DST ") + change);
            }
            String what = context + ", round " + round + ", after " + changes;
            CopyReport report = onSpark ? syncOnSpark(sync, src, dst) : sync.sync(src, dst, true);
            assertEquals(List.of(), report.counts().failures(), what + ": sync --delete");
            CompareReport compared = onSpark ? compareOnSpark(sync, src, dst)
                    : new CompareJob(sync.jobOptions(src, dst), 0, new LocalPhaseRunner(2), line -> {}).run();
            assertEquals(List.of(), compared.differences().stream().map(d -> d.describe()).toList(), what + ": compare");
            assertEquals(List.of(), compared.failures(), what + ": compare");
        }
    }

    // ---- on local Spark: the executors' walk, plan and compare ----------------------------------

    private static JavaSparkContext spark() {
        return new JavaSparkContext(new SparkConf().setAppName("spark-dcp-test").setMaster("local[2]")
                .set("spark.ui.enabled", "false").set("spark.speculation", "false"));
    }

    private static JavaSparkContext sc;

    private static SparkPhaseRunner runner() {
        if (sc == null) sc = spark();
        return new SparkPhaseRunner(sc);
    }

    @AfterAll
    static void stopSpark() {
        if (sc != null) sc.stop();
    }

    private static CopyReport syncOnSpark(LocalCopy sync, Path src, Path dst) {
        JobOptions options = distributed(sync, src, dst);
        try (SparkPhaseRunner r = runner()) {
            return new CopyJob(options, r, line -> {}, work -> {}).deleting(true).run();
        }
    }

    private static CompareReport compareOnSpark(LocalCopy sync, Path src, Path dst) {
        try (SparkPhaseRunner r = runner()) {
            return new CompareJob(distributed(sync, src, dst), 0, r, line -> {}).run();
        }
    }

    private static JobOptions distributed(LocalCopy sync, Path src, Path dst) {
        return sync.withListing(new ListingOptions(WalkMode.DISTRIBUTED, null, null)).jobOptions(src, dst);
    }

    // ---- the changes ------------------------------------------------------------------------------

    /** Random changes to one tree; each returns what it did, or null when it found nothing to change. */
    record Mutator(Random random, Path root, boolean source, boolean contents) {

        void build(int entries) throws IOException {
            for (int i = 0; i < entries; i++) {
                // Only where a lock (made by an earlier mutate) lets a name be made, and only to a file no lock keeps from a new name.
                Path dir = pick(p -> Files.isDirectory(p, java.nio.file.LinkOption.NOFOLLOW_LINKS) && changeable(p), true);
                Path p = dir.resolve("n" + i);
                switch (random.nextInt(10)) {
                    case 0, 1 -> Files.createDirectory(p);
                    case 2 -> Files.createSymbolicLink(p, Path.of(random.nextBoolean() ? "n0" : "../missing" + i));
                    case 3 -> {
                        Path file = pick(f -> isFile(f) && changeable(f) && linkableInto(f, dir), false);
                        if (file != null) Files.createLink(p, file);
                        else writeFile(p);
                    }
                    default -> writeFile(p);
                }
                if (random.nextInt(4) == 0) mutate();
            }
        }

        String mutate() throws IOException {
            return mutate(random.nextInt(contents ? 15 : 14));
        }

        /** One change of the given kind (the cases below; 14 needs {@code contents}), or null when it found nothing to change. */
        String mutate(int kind) throws IOException {
            return mutate(kind, p -> true);
        }

        /** {@link #mutate(int)} on an entry that {@code eligible} takes. */
        String mutate(int kind, java.util.function.Predicate<Path> eligible) throws IOException {
            // Splits need a name with others: looked for among those.
            Path p = kind == 0 ? pick(f -> isFile(f) && stat(f).nlink() > 1 && changeable(f) && eligible.test(f), false)
                    : pick(f -> changeable(f) && eligible.test(f), false);
            if (p == null) return null;
            String rel = root.relativize(p).toString();
            boolean file = isFile(p);
            boolean dir = Files.isDirectory(p, java.nio.file.LinkOption.NOFOLLOW_LINKS);
            boolean symlink = Files.isSymbolicLink(p);
            switch (kind) {
                case 0 -> { // split: the name gets an inode of its own, same bytes and times
                    if (!file || stat(p).nlink() < 2) return null;
                    SyncIdenticalTest.separate(p);
                    return "split " + rel;
                }
                case 1 -> { // join: the name becomes another file's
                    Path other = pick(f -> isFile(f) && !f.equals(p) && changeable(f) && linkableInto(f, p.getParent()), false);
                    if (!file || other == null) return null;
                    Files.delete(p);
                    Files.createLink(p, other);
                    return "join " + rel + " to " + root.relativize(other);
                }
                case 2 -> { // a flag set or cleared
                    if (symlink) return null;
                    int flag = FLAGS[random.nextInt(FLAGS.length)];
                    fsx(p, x -> new FsXattr(x.xflags() ^ flag, x.extsize(), x.nextents(), x.projid(), x.cowextsize()));
                    return "flag 0x" + Integer.toHexString(flag) + " toggled on " + rel;
                }
                case 3 -> { // a lock: on SRC only, and nothing changes it afterwards
                    if (!source || symlink || random.nextInt(3) != 0) return null;
                    int lock = random.nextBoolean() ? Linux.FS_XFLAG_IMMUTABLE : Linux.FS_XFLAG_APPEND;
                    fsx(p, x -> new FsXattr(x.xflags() | lock, x.extsize(), x.nextents(), x.projid(), x.cowextsize()));
                    return "locked 0x" + Integer.toHexString(lock) + " " + rel;
                }
                case 4 -> { // an xattr set or removed
                    if (symlink) return null;
                    byte[] name = ("user.k" + random.nextInt(3)).getBytes(StandardCharsets.US_ASCII);
                    byte[] bytes = PathBytes.of(p.toString());
                    if (random.nextBoolean()) Posix.lsetxattr(bytes, name, ("v" + random.nextInt(100)).getBytes(StandardCharsets.US_ASCII));
                    else Commands.tryRun("setfattr", "-x", new String(name, StandardCharsets.US_ASCII), p.toString());
                    return "xattr " + rel;
                }
                case 5 -> { // an ACL: access, or a directory's default
                    if (symlink) return null;
                    String spec = "u:" + OWNERS[1 + random.nextInt(2)] + ":r" + (random.nextBoolean() ? "w" : "-") + "x";
                    if (random.nextInt(4) == 0) Commands.run("setfacl", "-b", p.toString());
                    else if (dir && random.nextBoolean()) Commands.run("setfacl", "-d", "-m", spec, p.toString());
                    else Commands.run("setfacl", "-m", spec, p.toString());
                    return "acl " + rel;
                }
                case 6 -> { // a project ID, with PROJINHERIT on directories
                    if (symlink) return null;
                    int projid = random.nextInt(3) * 50;
                    boolean inherit = dir && random.nextBoolean();
                    fsx(p, x -> x.withProject(projid, inherit));
                    return "project " + projid + (inherit ? " inherited" : "") + " on " + rel;
                }
                case 7 -> {
                    if (symlink) return null;
                    at(p, (d, n) -> Posix.chmodAt(d, n, random.nextInt(01000) | (dir ? 0700 : 0) | (random.nextInt(4) == 0 ? 04000 : 0)));
                    return "mode of " + rel;
                }
                case 8 -> {
                    at(p, (d, n) -> Posix.lchownAt(d, n, OWNERS[random.nextInt(3)], OWNERS[random.nextInt(3)]));
                    return "owner of " + rel;
                }
                case 9 -> { // another type at the name
                    if (!removable(p)) return null;
                    removeTree(p);
                    if (dir || symlink) writeFile(p);
                    else if (random.nextBoolean()) Files.createSymbolicLink(p, Path.of("elsewhere"));
                    else Files.writeString(Files.createDirectory(p).resolve("inside"), "was a file");
                    return "type of " + rel;
                }
                case 10 -> { // a sparse file: data at both ends of a hole
                    if (!file) return null;
                    sparse(p);
                    return "sparse " + rel;
                }
                case 11 -> { // new entries beside it
                    Path parent = dir ? p : p.getParent();
                    writeFile(parent.resolve("new" + random.nextInt(1000)));
                    return "new file in " + root.relativize(parent);
                }
                case 12 -> {
                    if (!removable(p)) return null;
                    removeTree(p);
                    return "removed " + rel;
                }
                case 13 -> { // new data, a new mtime
                    if (!file) return null;
                    writeFile(p);
                    return "rewritten " + rel;
                }
                default -> { // --contents: same size, other bytes, the mtime restored
                    if (!file || Files.size(p) == 0) return null;
                    Stat before = stat(p);
                    try (RandomAccessFile f = new RandomAccessFile(p.toFile(), "rw")) {
                        long at = random.nextLong(f.length());
                        f.seek(at);
                        int b = f.read();
                        f.seek(at);
                        f.write(b ^ 0x55);
                    }
                    at(p, (d, n) -> Posix.lutimensAt(d, n, before.atimeSec(), before.atimeNsec(), before.mtimeSec(), before.mtimeNsec()));
                    return "bytes of " + rel + " (mtime kept)";
                }
            }
        }

        private void writeFile(Path p) throws IOException {
            if (random.nextInt(5) == 0) {
                sparse(p);
                return;
            }
            byte[] data = new byte[random.nextInt(5) == 0 ? 0 : 1 + random.nextInt(9000)];
            random.nextBytes(data);
            Files.write(p, data);
        }

        private void sparse(Path p) throws IOException {
            try (RandomAccessFile f = new RandomAccessFile(p.toFile(), "rw")) {
                f.setLength(0);
                f.write(random.nextInt(256));
                f.seek((1 + random.nextInt(4)) << 20);
                f.write(random.nextInt(256));
            }
        }

        /** Not locked, nor beneath a locked directory (the root is never locked): a name there can be made, moved or removed. */
        boolean changeable(Path p) {
            for (Path q = p; q != null && q.startsWith(root) && !q.equals(root); q = q.getParent())
                if (stat(q).locks() != 0) return false;
            return true;
        }

        /** XFS refuses a link or rename of file into a PROJINHERIT directory of another project (EXDEV). */
        static boolean linkableInto(Path file, Path dir) {
            FsXattr into = fsxOf(dir);
            return !into.projInherit() || into.projid() == fsxOf(file).projid();
        }

        private static FsXattr fsxOf(Path p) {
            try (Fd fd = Posix.open(PathBytes.of(p.toString()), Linux.O_RDONLY | Linux.O_NOFOLLOW | Linux.O_NONBLOCK)) {
                return Posix.getFsXattr(fd);
            }
        }

        /** Changeable, and nothing beneath it locked. */
        private boolean removable(Path p) throws IOException {
            if (!changeable(p)) return false;
            try (Stream<Path> all = Files.walk(p)) {
                return all.allMatch(q -> stat(q).locks() == 0);
            }
        }

        private static void removeTree(Path p) throws IOException {
            try (Stream<Path> all = Files.walk(p)) {
                for (Path q : all.sorted(Comparator.reverseOrder()).toList()) Files.delete(q);
            }
        }

        private Path pick(java.util.function.Predicate<Path> which, boolean orRoot) throws IOException {
            List<Path> all;
            try (Stream<Path> walk = Files.walk(root)) {
                all = walk.filter(q -> orRoot || !q.equals(root)).filter(which).sorted().toList();
            }
            return all.isEmpty() ? null : all.get(random.nextInt(all.size()));
        }

        private static void fsx(Path p, java.util.function.UnaryOperator<FsXattr> change) {
            try (Fd fd = Posix.open(PathBytes.of(p.toString()), Linux.O_RDONLY | Linux.O_NOFOLLOW | Linux.O_NONBLOCK)) {
                Posix.setFsXattr(fd, change.apply(Posix.getFsXattr(fd)));
            }
        }

        private static void at(Path p, java.util.function.BiConsumer<Fd, byte[]> call) {
            try (Fd dir = Posix.open(PathBytes.of(p.getParent().toString()), Linux.O_RDONLY | Linux.O_DIRECTORY)) {
                call.accept(dir, PathBytes.of(p.getFileName().toString()));
            }
        }

        private static boolean isFile(Path p) {
            return Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS);
        }

        private static Stat stat(Path p) {
            return Posix.lstat(PathBytes.of(p.toString()));
        }
    }
}

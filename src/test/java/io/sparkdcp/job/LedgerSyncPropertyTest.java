package io.sparkdcp.job;

import io.sparkdcp.copy.options.CopyModes;
import io.sparkdcp.job.exec.JobOptions;
import io.sparkdcp.job.exec.LocalPhaseRunner;
import io.sparkdcp.job.listing.ListingOptions;
import io.sparkdcp.job.listing.WalkMode;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.report.CompareReport;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.spark.SparkPhaseRunner;
import io.sparkdcp.testing.LocalCopy;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.Seeds;
import io.sparkdcp.walk.Filter;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * With a state ledger (--state), a sync still finds every change: after a first copy, random changes on either
 * side (each kind at least once over the run: data rewritten with its mtime put back, xattr, ACL, project ID, flag,
 * mode, owner, a hard link made or broken, another type at a name, a rename within DST, a name made or removed in
 * a DST directory behind the ledger's back) are each found by the next sync and fixed, and compare --contents
 * then finds nothing, while the ledger proves the rest unchanged. One ledger serves copy and sync: the first pass
 * and one round are copies (which keep what their stats call identical: the next sync still finds the rest), and
 * one round runs with other filters (the ledger narrowed, never voided; what they leave out at DST not deleted).
 * The last rounds run on local Spark with the listing on the executors, so the ledger is met and written there.
 * Seeded: a failure, an exception too, names its seed; {@code -Dledgerprop.seed=N} replays it. A seed that failed
 * once stays a fixed case. The changes drawn are only those the trees as they stand allow.
 */
class LedgerSyncPropertyTest {
    /** The Mutator's kinds a ledger could hide: split, join, flag, xattr, ACL, project, mode, owner, type, bytes with the mtime kept. */
    private static final List<Integer> KINDS = List.of(0, 1, 2, 4, 5, 6, 7, 8, 9, 14);
    private static final int RENAME_IN_DESTINATION = -1;
    /** A name made in a DST directory, or one removed there, behind the ledger's back. */
    private static final int NEW_IN_DESTINATION = -2, REMOVED_IN_DESTINATION = -3;
    private static final List<Integer> IN_DESTINATION = List.of(RENAME_IN_DESTINATION, NEW_IN_DESTINATION, REMOVED_IN_DESTINATION);
    /** The Mutator's kinds that make a name beside an entry, and remove an entry. */
    private static final int NEW_NAME = 11, REMOVED = 12;
    /** The Mutator's kind that puts another type at a name: a copy refuses a directory against a file (no delete). */
    private static final int TYPE = 9;
    /** The Mutator's kind that rewrites bytes and puts the mtime back. */
    private static final int BYTES_WITH_MTIME_KEPT = 14;
    private static final int ROUNDS = 5;
    private static final int ON_SPARK = 1;
    /** The round run as a copy, and the one run with other filters (the rounds after go back to none). */
    private static final int COPY_ROUND = 1, FILTERED_ROUND = 2;
    /** The other filters: a name the tree's builder gives (n1, n10 to n19), its subtree with it. */
    private static final Filter OTHER_FILTERS = new Filter(List.of(Filter.Rule.of(false, PathBytes.of("n1*"))), null);
    private static final String SEED_PROPERTY = "ledgerprop.seed";
    /**
     * Seeds that failed once, each run for good: 49 and 72 renamed out of or over a locked entry (EPERM);
     * 3402186191879 drew, forty times, a first kind its trees did not allow, and made no change; 3621993300846
     * rewrote the bytes of a file the filtered round left out (mtime kept), whose record that round dropped;
     * 3526270645491 spent a round's tries on a kind its trees did not allow then, and made no change.
     */
    private static final List<Long> FAILED_ONCE = List.of(49L, 72L, 3402186191879L, 3621993300846L, 3526270645491L);

    private static LoopMount mount;
    private static JavaSparkContext sc;

    @BeforeAll
    static void mount() {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.create("ledgerprop", LoopMount.MIN_SIZE_MIB);
    }

    @AfterAll
    static void unmount() {
        if (sc != null) sc.stop();
        if (mount != null) mount.close();
    }

    /** Every seed that once failed, a fixed case for good; then a fresh one. */
    static List<Long> seeds() {
        return Seeds.toRun(SEED_PROPERTY, FAILED_ONCE, 1);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void everyChangeIsFoundThroughTheLedger(long seed) {
        String context = Seeds.context(seed, SEED_PROPERTY);
        Seeds.naming(context, () -> checkSeed(seed, context));
    }

    private static void checkSeed(long seed, String context) throws IOException {
        Random random = new Random(seed);
        Path src = Files.createDirectory(mount.dir().resolve("src" + seed));
        Path dst = Files.createDirectory(mount.dir().resolve("dst" + seed));
        String state = mount.dir().resolve("state" + seed).toString();
        LocalCopy sync = LocalCopy.syncDefaults().withBatchFiles(1 + random.nextInt(8))
                .withListing(new ListingOptions(WalkMode.AUTO, null, null, Filter.NONE, false, state));
        LocalCopy copy = sync.withModes(CopyModes.COPY);
        new SyncMakesIdenticalPropertyTest.Mutator(random, src, true, false).build(40);
        assertEquals(List.of(), copy.run(src, dst).counts().failures(), context + ": first copy");

        List<Integer> todo = new ArrayList<>(KINDS);
        todo.addAll(IN_DESTINATION);
        Collections.shuffle(todo, random);
        TreeSet<Integer> done = new TreeSet<>();
        // Up to three rounds more while a kind is left that the trees did not allow (a split before any join).
        for (int round = 0; round < ROUNDS || !todo.isEmpty() && round < ROUNDS + 3; round++) {
            boolean copying = round == COPY_ROUND;
            List<String> changes = new ArrayList<>();
            for (int tries = 0; changes.size() < 3 && tries < 40; tries++) {
                int kind = drawn(todo, tries, random, copying);
                boolean source = !IN_DESTINATION.contains(kind) && random.nextBoolean();
                String change = change(kind, source, src, dst, random);
                if (change == null) continue;
                todo.remove(Integer.valueOf(kind));
                done.add(kind);
                changes.add((source ? "SRC " : "DST ") + change);
            }
            String what = context + ", round " + round + (copying ? " (a copy)" : "") + ", after " + changes;
            boolean onSpark = round >= ROUNDS - ON_SPARK;
            if (round == FILTERED_ROUND) {
                checkFiltered(sync, src, dst, state, what);
                continue;
            }
            CopyReport report = copying ? copy.run(src, dst) : onSpark ? onSpark(sync, src, dst) : sync.sync(src, dst, true);
            assertEquals(List.of(), report.counts().failures(), what + (copying ? ": copy" : ": sync --delete"));
            assertTrue(report.listed().ledgerUnchanged() > 0, what + ": the ledger proved nothing unchanged");
            if (changes.isEmpty()) assertEquals(report.listed().entries(), report.listed().ledgerUnchanged(), what + ": nothing changed");
            else assertTrue(report.listed().ledgerUnchanged() < report.listed().entries(), what + ": the ledger hid a change");
            // A copy leaves what it keeps by its stats as it is (an xattr, a flag) and names DST has beside SRC's: the
            // sync after it finds them, and compare checks that.
            if (!copying) assertIdentical(sync, src, dst, what);
        }
        assertEquals(List.of(), todo, context + ": kinds never applied");
        // The last round's ledger, written by the executors, proves every entry of a pass that changes nothing.
        CopyReport still = sync.sync(src, dst, true);
        assertEquals(still.listed().entries(), still.listed().ledgerUnchanged(), context + ": a pass without changes");
        assertEquals(0, still.counts().copied() + still.counts().metadataFixed(), context + ": a pass without changes");
    }

    /**
     * The kind to try: those not yet applied first, in turn, twice each (one the trees do not allow now is tried again
     * in a later round), then any;
     * in a copy's round, none that makes it refuse (another type at a name).
     */
    private static int drawn(List<Integer> todo, int tries, Random random, boolean copying) {
        List<Integer> left = todo.stream().filter(kind -> !copying || kind != TYPE).toList();
        // Each twice at most: a kind the trees do not allow now must not take all the round's tries.
        if (tries < 2 * left.size()) return left.get(tries % left.size());
        while (true) {
            int kind = KINDS.get(random.nextInt(KINDS.size()));
            if (!copying || kind != TYPE) return kind;
        }
    }

    /** One change of this kind, on SRC or DST; null when the trees as they stand allow none. */
    private static String change(int kind, boolean source, Path src, Path dst, Random random) throws IOException {
        return switch (kind) {
            case RENAME_IN_DESTINATION -> renameWithin(dst, random);
            case NEW_IN_DESTINATION -> new SyncMakesIdenticalPropertyTest.Mutator(random, dst, false, true).mutate(NEW_NAME);
            case REMOVED_IN_DESTINATION -> new SyncMakesIdenticalPropertyTest.Mutator(random, dst, false, true).mutate(REMOVED);
            default -> new SyncMakesIdenticalPropertyTest.Mutator(random, source ? src : dst, source, true).mutate(kind, eligibleFor(kind));
        };
    }

    private static void assertIdentical(LocalCopy sync, Path src, Path dst, String what) {
        CompareReport compared = new CompareJob(sync.withModes(CopyModes.of(CopyModes.Mode.SYNC, CopyModes.Mode.CONTENTS))
                .jobOptions(src, dst), 0, new LocalPhaseRunner(2), line -> {}).run();
        assertEquals(List.of(), compared.differences().stream().map(d -> d.describe()).toList(), what + ": compare --contents");
        assertEquals(List.of(), compared.failures(), what + ": compare");
    }

    /**
     * A sync --delete with other filters than the ledger's: the ledger is used for what they list (not voided), and
     * what they leave out at DST is not deleted; the rounds after, with no filters, find what this one left.
     */
    private static void checkFiltered(LocalCopy sync, Path src, Path dst, String state, String what) throws IOException {
        List<Path> leftOut;
        try (Stream<Path> all = Files.walk(dst)) {
            leftOut = all.filter(p -> leftOutByOtherFilters(dst.relativize(p))).toList();
        }
        LocalCopy filtered = sync.withListing(new ListingOptions(WalkMode.AUTO, null, null, OTHER_FILTERS, false, state));
        CopyReport report = filtered.sync(src, dst, true);
        assertEquals(List.of(), report.counts().failures(), what + ": sync --delete with other filters");
        assertTrue(report.listed().ledgerUnchanged() > 0, what + ": the ledger proved nothing under other filters");
        for (Path p : leftOut) assertTrue(Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS), what + ": deleted " + p + ", which the filters leave out");
    }

    private static boolean leftOutByOtherFilters(Path relative) {
        for (Path name : relative) if (name.toString().startsWith("n1")) return true;
        return false;
    }

    /**
     * A name in DST moved over another (both are SRC's names): the moved-over name now holds the other's inode.
     * Only between names a rename can move and replace: neither locked nor in a locked directory (a sync carries
     * SRC's locks), and not into a directory of another inherited project (XFS says EXDEV).
     */
    private static String renameWithin(Path dst, Random random) throws IOException {
        SyncMakesIdenticalPropertyTest.Mutator tree = new SyncMakesIdenticalPropertyTest.Mutator(random, dst, false, false);
        List<Path> files;
        try (Stream<Path> all = Files.walk(dst)) {
            files = all.filter(p -> Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)).filter(tree::changeable).sorted().toList();
        }
        if (files.size() < 2) return null;
        Path from = files.get(random.nextInt(files.size()));
        Path to = files.get(random.nextInt(files.size()));
        if (from.equals(to) || !SyncMakesIdenticalPropertyTest.Mutator.linkableInto(from, to.getParent())) return null;
        Files.move(from, to, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        return "renamed " + dst.relativize(from) + " over " + dst.relativize(to);
    }

    private static CopyReport onSpark(LocalCopy sync, Path src, Path dst) {
        if (sc == null) sc = new JavaSparkContext(new SparkConf().setAppName("spark-dcp-test").setMaster("local[2]")
                .set("spark.ui.enabled", "false").set("spark.speculation", "false"));
        ListingOptions l = sync.listing();
        JobOptions options = sync.withListing(new ListingOptions(WalkMode.DISTRIBUTED, null, null, l.filter(), false, l.state())).jobOptions(src, dst);
        try (SparkPhaseRunner runner = new SparkPhaseRunner(sc)) {
            return new CopyJob(options, runner, line -> {}, work -> {}).deleting(true).run();
        }
    }

    /**
     * Bytes rewritten with the mtime put back are found through the ledger in a file of one name (its contents are
     * compared); in a hard-linked file they are not, as without a ledger (docs/usage.md says so): not drawn there.
     */
    private static java.util.function.Predicate<Path> eligibleFor(int kind) {
        return kind != BYTES_WITH_MTIME_KEPT ? p -> true : p -> {
            try {
                return ((Number) Files.getAttribute(p, "unix:nlink", java.nio.file.LinkOption.NOFOLLOW_LINKS)).intValue() == 1;
            } catch (IOException e) {
                return false;
            }
        };
    }
}

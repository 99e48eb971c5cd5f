package io.sparkdcp.job;

import io.sparkdcp.job.exec.Listed;
import io.sparkdcp.job.listing.ListingOptions;
import io.sparkdcp.job.listing.WalkMode;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.LocalCopy;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.walk.Entry;
import io.sparkdcp.walk.Filter;
import io.sparkdcp.walk.TreeWalker;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Issue 14 item 1 on XFS: --exclude/--include rules and --files-from decide what both walkers list;
 * excluded directories are not walked; sync --delete leaves excluded DST entries alone unless
 * --delete-excluded; the dry run says the same. Names that are not UTF-8 filter like any other.
 */
class FilterCopyTest {
    private static LoopMount mount;
    private static Path src;

    /** \xe9 alone is not UTF-8. */
    private static final String CAFE = "caf\\xe9";

    @BeforeAll
    static void build() {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.create("filters", LoopMount.MIN_SIZE_MIB);
        src = mount.dir().resolve("src");
        Commands.bash("set -e; mkdir -p " + src + "; cd " + src + "; "
                + "echo k > keep.txt; echo t > a.tmp; echo i > important.tmp; "
                + "echo x > $'" + CAFE + ".dat'; echo y > $'" + CAFE + ".txt'; "
                + "mkdir -p .snapshot/hourly data/sub data/scratch top data/top $'d" + CAFE + "'; "
                + "for i in 1 2 3 4 5 6 7 8 9; do echo $i > .snapshot/hourly/f$i; done; "
                + "echo c > data/x.c; echo o > data/y.o; echo z > data/sub/z.c; echo s > data/scratch/s; "
                + "echo s > data/scratch2; echo t > top/t; echo u > data/top/u; echo n > $'d" + CAFE + "/n'");
    }

    @AfterAll
    static void unmount() {
        if (mount != null) mount.close();
    }

    /** The rules of a migration: keep one .tmp, drop the rest, snapshots, /top, scratch dirs and the Latin-1 .dat. */
    private static Filter rules() {
        Filter f = Filter.NONE;
        f = f.with(Filter.Rule.of(true, PathBytes.of("important.tmp")));
        f = f.with(Filter.Rule.of(false, PathBytes.of("*.tmp")));
        f = f.with(Filter.Rule.of(false, PathBytes.of(".snapshot/")));
        f = f.with(Filter.Rule.of(false, PathBytes.of("/top")));
        f = f.with(Filter.Rule.of(false, PathBytes.of("scratch/")));
        f = f.with(Filter.Rule.of(false, new byte[]{'*', (byte) 0xe9, '.', 'd', 'a', 't'}));
        return f;
    }

    private static final Set<String> KEPT_BY_RULES = new TreeSet<>(List.of(
            "keep.txt", "important.tmp", "caf\\xe9.txt", "data", "data/sub", "data/x.c", "data/y.o", "data/sub/z.c",
            "data/scratch2", "data/top", "data/top/u", "dcaf\\xe9", "dcaf\\xe9/n"));

    @Test
    void bothWalkersListWhatTheRulesKeepAndDoNotWalkExcludedDirectories() throws IOException {
        for (WalkMode walk : List.of(WalkMode.DRIVER, WalkMode.DISTRIBUTED)) {
            Path dst = mount.dir().resolve("rules-" + walk);
            Files.createDirectory(dst);
            CopyReport r = LocalCopy.defaults().withListing(new ListingOptions(walk, null, null, rules(), false)).run(src, dst);
            assertEquals(List.of(), r.counts().failures(), walk.toString());
            assertEquals(KEPT_BY_RULES, paths(dst), walk + ": what DST holds");
            // Listed: the root and the kept entries; the 9 files under .snapshot were never read.
            assertEquals(KEPT_BY_RULES.size() + 1, r.listed().entries(), walk + ": entries listed");
        }
    }

    @Test
    void filesFromCopiesTheListedPathsAndTheDirectoriesAboveThem() throws IOException {
        Path dst = Files.createDirectory(mount.dir().resolve("listed"));
        Filter listed = Filter.NONE.listing(List.of(PathBytes.of("data/sub/z.c"), new byte[]{'d', 'c', 'a', 'f', (byte) 0xe9}));
        CopyReport r = LocalCopy.defaults().withListing(new ListingOptions(WalkMode.DRIVER, null, null, listed, false)).run(src, dst);
        assertEquals(List.of(), r.counts().failures());
        assertEquals(new TreeSet<>(List.of("data", "data/sub", "data/sub/z.c", "dcaf\\xe9", "dcaf\\xe9/n")), paths(dst));
    }

    @Test
    void aListedPathSrcLacksFailsAndStopsDeletionButOneTheRulesLeaveOutDoesNot() throws IOException {
        Path dst = Files.createDirectory(mount.dir().resolve("listed-missing"));
        Filter listed = Filter.NONE.with(Filter.Rule.of(false, PathBytes.of("*.o")))
                .listing(List.of(PathBytes.of("data/x.c"), PathBytes.of("data/y.o"), PathBytes.of("data/absent"), PathBytes.of("gone/deep")));
        LocalCopy sync = LocalCopy.syncDefaults().withListing(new ListingOptions(WalkMode.DRIVER, null, null, listed, false));
        CopyReport r = sync.sync(src, dst, true);
        assertEquals(new TreeSet<>(List.of(".", "data/absent", "gone/deep")),
                new TreeSet<>(r.counts().failures().stream().map(f -> f.path()).toList()),
                "the two missing paths (data/y.o is left out by a rule), and the refused deletion");
        assertEquals(2, r.counts().failures().stream().filter(f -> f.op().equals("files-from")).count());
        assertEquals(new TreeSet<>(List.of("data", "data/x.c")), paths(dst), "the rest is copied");
    }

    @Test
    void syncDeleteLeavesExcludedEntriesUnlessDeleteExcluded() throws IOException {
        for (boolean deleteExcluded : new boolean[]{false, true}) {
            Path dst = Files.createDirectory(mount.dir().resolve("delete-" + deleteExcluded));
            LocalCopy plain = LocalCopy.syncDefaults();
            assertEquals(List.of(), plain.sync(src, dst, false).counts().failures(), "a full copy first");
            Files.writeString(dst.resolve("data/gone.txt"), "DST's own");
            Set<String> before = paths(dst);

            LocalCopy filtered = plain.withListing(new ListingOptions(WalkMode.DRIVER, null, null, rules(), deleteExcluded));
            SyncPreview preview = DryRuns.onThreads(filtered.jobOptions(src, dst), true, true);
            CopyReport r = filtered.sync(src, dst, true);
            assertEquals(List.of(), r.counts().failures());

            Set<String> expected = new TreeSet<>(deleteExcluded ? KEPT_BY_RULES : before);
            expected.remove("data/gone.txt");
            assertEquals(expected, paths(dst), "--delete-excluded " + deleteExcluded);
            Set<String> deleted = new TreeSet<>(before);
            deleted.removeAll(expected);
            Set<String> previewed = new TreeSet<>();
            for (Entry e : preview.delete()) previewed.add(e.display());
            assertEquals(deleted, previewed, "the dry run deletes what the run deletes");
            assertEquals(deleted.size(), r.counts().deleted());
        }
    }

    /**
     * A DST-only directory that only excluded entries fill, directly or in a subdirectory of its own, stays
     * with a notice each (rsync's "cannot delete non-empty directory"), not a failure; what it held stays.
     */
    @Test
    void aDirectoryOnlyExcludedEntriesFillIsKeptWithANotice() throws IOException {
        Path dst = Files.createDirectory(mount.dir().resolve("kept-by-filters"));
        LocalCopy plain = LocalCopy.syncDefaults();
        assertEquals(List.of(), plain.sync(src, dst, false).counts().failures(), "a full copy first");
        Commands.bash("set -e; cd " + dst + "; mkdir -p old/deep; echo a > old/a.tmp; echo b > old/deep/b.tmp; echo c > old/c.txt");

        CopyReport r = plain.withListing(new ListingOptions(WalkMode.DRIVER, null, null, rules(), false)).sync(src, dst, true);
        assertEquals(List.of(), r.counts().failures());
        assertEquals(Set.of("old", "old/deep"), r.counts().notices().stream().filter(n -> n.message().contains("filters exclude"))
                .map(n -> n.path()).collect(Collectors.toSet()));
        assertEquals(Set.of("old", "old/a.tmp", "old/deep", "old/deep/b.tmp"),
                paths(dst).stream().filter(p -> p.startsWith("old")).collect(Collectors.toSet()),
                "old/c.txt, which the rules list, is deleted; the excluded entries and their directories stay");
    }

    /** DST's entries, relative, displayed (\xNN for bytes that are not UTF-8). */
    private static Set<String> paths(Path root) {
        Set<String> out = new TreeSet<>();
        for (Entry e : new TreeWalker(2, false).walk(PathBytes.of(root.toString())).entries()) {
            if (!e.isRoot()) out.add(e.display());
        }
        return out;
    }
}

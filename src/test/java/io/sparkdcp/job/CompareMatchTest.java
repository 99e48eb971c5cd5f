package io.sparkdcp.job;

import io.sparkdcp.copy.compare.Difference;
import io.sparkdcp.copy.compare.EntryPair;
import io.sparkdcp.job.exec.PathKey;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Stat;
import io.sparkdcp.walk.Entry;
import io.sparkdcp.walk.Listing;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** How compare matches two listings, judged from entries alone: what one side lacks, and hard-link groups. */
@Tag("fast")
class CompareMatchTest {
    /** Two listings matched whole, directory by directory as {@link CompareJob} meets them; in path order. */
    private static CompareMatch.Matched match(List<Entry> source, List<Entry> destination, Set<String> sourceUnreadable,
                                              Set<String> destinationUnreadable) {
        Map<PathKey, List<CompareMatch.Placed>> here = byKey(CompareMatch.placed(Listing.of(source, List.of()).blocks()));
        Map<PathKey, List<CompareMatch.Placed>> there = byKey(CompareMatch.placed(Listing.of(destination, List.of()).blocks()));
        List<EntryPair> pairs = new ArrayList<>();
        List<Difference> differences = new ArrayList<>();
        long below = 0;
        Set<PathKey> keys = new LinkedHashSet<>(here.keySet());
        keys.addAll(there.keySet());
        for (PathKey k : keys) {
            CompareMatch.Matched m = CompareMatch.of(here.getOrDefault(k, List.of()), there.getOrDefault(k, List.of()),
                    sourceUnreadable, destinationUnreadable);
            pairs.addAll(m.pairs());
            differences.addAll(m.differences());
            below += m.onlyBelow();
        }
        differences.sort(CompareJob.BY_PATH);
        return new CompareMatch.Matched(CompareMatch.inPathOrder(pairs), differences, below);
    }

    /** Names that share an inode in one tree and not in the other, judged from each side as {@link CompareJob} does. */
    private static List<Difference> hardLinks(List<EntryPair> pairs) {
        List<Difference> out = new ArrayList<>();
        CompareJob.splits(pairs, true, out);
        CompareJob.splits(pairs, false, out);
        return out;
    }

    private static Map<PathKey, List<CompareMatch.Placed>> byKey(List<CompareMatch.Placed> placed) {
        Map<PathKey, List<CompareMatch.Placed>> out = new LinkedHashMap<>();
        for (CompareMatch.Placed p : placed) out.computeIfAbsent(p.directory(), k -> new ArrayList<>()).add(p);
        return out;
    }

    @Test
    void aSubtreeOneSideLacksIsOneDifferenceAndItsEntriesAreCounted() {
        List<Entry> source = List.of(dir(""), dir("a"), file("a/x", 1), dir("a/b"), file("a/b/y", 2), file("z", 3));
        List<Entry> destination = List.of(dir(""), file("z", 3), dir("n"), file("n/m", 4));

        CompareMatch.Matched m = match(source, destination, Set.of(), Set.of());

        assertEquals(List.of("a: only_in_source: directory", "n: only_in_destination: directory"), lines(m.differences()));
        assertEquals(4, m.onlyBelow()); // a/x, a/b, a/b/y, n/m
        assertEquals(2, m.pairs().size()); // the roots, z
    }

    @Test
    void belowADirectoryFacingAFileOnlyTheTypeDiffers() {
        List<Entry> source = List.of(dir(""), dir("t"), file("t/inner", 1));
        List<Entry> destination = List.of(dir(""), file("t", 5));

        CompareMatch.Matched m = match(source, destination, Set.of(), Set.of());

        assertEquals(List.of(), lines(m.differences()));
        assertEquals(1, m.onlyBelow());
        assertEquals(2, m.pairs().size()); // the pair at t is compared (and differs in type) by a task
    }

    @Test
    void whatTheOtherWalkCouldNotListIsNotCalledMissing() {
        List<Entry> source = List.of(dir(""), dir("locked"), file("locked/f", 1), file("gone", 1));
        List<Entry> destination = List.of(dir(""), dir("locked"));

        CompareMatch.Matched m = match(source, destination, Set.of(), Set.of("locked"));

        assertEquals(List.of("gone: only_in_source: file, 1 bytes"), lines(m.differences()));
    }

    @Test
    void aSplitHardLinkGroupIsOneDifferenceFromEachSideThatSeesIt() {
        EntryPair a = pair("h/a", 7, 3, 70, 2);
        EntryPair b = pair("h/b", 7, 3, 70, 2);
        EntryPair c = pair("h/c", 7, 3, 71, 1);
        EntryPair lone = pair("lone", 8, 1, 70, 2); // linked to a and b only in the destination

        List<String> found = lines(hardLinks(List.of(a, b, c, lone)));

        assertEquals(List.of("h/a: hard_links: [h/a, h/b, h/c] != [h/a, h/b] [h/c]",
                "h/a: hard_links: [h/a, h/b] [lone] != [h/a, h/b, lone]"), found);
    }

    private static List<String> lines(List<Difference> differences) {
        return differences.stream().map(Difference::describe).toList();
    }

    private static EntryPair pair(String path, long sourceIno, long sourceLinks, long destinationIno, long destinationLinks) {
        return new EntryPair(entry(path, FileType.FILE, 1, sourceIno, sourceLinks), entry(path, FileType.FILE, 1, destinationIno, destinationLinks));
    }

    private static Entry dir(String path) {
        return entry(path, FileType.DIRECTORY, 4096, path.hashCode(), 2);
    }

    private static Entry file(String path, long size) {
        return entry(path, FileType.FILE, size, path.hashCode(), 1);
    }

    private static Entry entry(String path, FileType type, long size, long ino, long nlink) {
        Stat stat = Stat.of(type).permissions(0644).size(size).blocks(8).nlink(nlink).dev(1).ino(ino).build();
        return new Entry(PathBytes.of(path), stat, null);
    }
}

package io.sparkdcp.job;

import io.sparkdcp.copy.compare.Difference;
import io.sparkdcp.copy.compare.EntryPair;
import io.sparkdcp.job.exec.PathKey;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.walk.DirectoryBlock;
import io.sparkdcp.walk.Entry;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * How compare matches its two listings: directory by directory, each side's entries of a directory met
 * by its path (a co-group on the executors, a map on the driver alike). What one tree lacks is a
 * difference unless the other tree could not list it; of a subtree one side lacks, only the top is.
 */
final class CompareMatch {
    private CompareMatch() {}

    /**
     * @param pairs       entries both trees have, of the same type or not
     * @param differences entries one tree lacks: the topmost only, for a directory one side lacks
     * @param onlyBelow   entries left unreported below such directories
     */
    record Matched(List<EntryPair> pairs, List<Difference> differences, long onlyBelow) implements Serializable {}

    /**
     * What one directory's match needs of one side: the directory's own entry and its files (its block), or
     * one of its subdirectories' own entries. The root's entry stands in its own block only. Meeting both
     * sides by directory is the executors' way (a co-group) and the driver's alike.
     */
    record Placed(PathKey directory, DirectoryBlock block, Entry subdirectory) implements Serializable {}

    static List<Placed> placed(List<DirectoryBlock> blocks) {
        List<Placed> out = new ArrayList<>();
        for (DirectoryBlock b : blocks) {
            out.add(new Placed(new PathKey(b.path()), b, null));
            Entry directory = b.directory();
            if (directory != null && !directory.isRoot()) out.add(new Placed(new PathKey(directory.parent()), null, directory));
        }
        return out;
    }

    /**
     * One directory's entries on both sides. A directory only one side has (or where the other has no
     * directory) hides what it holds: its entries are counted below it, not reported; the directory
     * itself is judged in its parent's group (the root's pair in its own).
     */
    static Matched of(List<Placed> here, List<Placed> there, Set<String> sourceUnreadable, Set<String> destinationUnreadable) {
        Entry selfHere = self(here);
        Entry selfThere = self(there);
        Map<PathKey, Entry> inHere = children(here);
        Map<PathKey, Entry> inThere = children(there);
        boolean onlyHere = selfHere != null && selfThere == null && !underUnreadable(selfHere.path(), destinationUnreadable);
        boolean onlyThere = selfThere != null && selfHere == null && !underUnreadable(selfThere.path(), sourceUnreadable);
        List<EntryPair> pairs = new ArrayList<>();
        List<Difference> differences = new ArrayList<>();
        long below = 0;
        if (selfHere != null && selfThere != null && selfHere.isRoot()) pairs.add(new EntryPair(selfHere, selfThere));
        for (Map.Entry<PathKey, Entry> e : inHere.entrySet()) {
            Entry s = e.getValue();
            Entry d = inThere.get(e.getKey());
            if (d != null) pairs.add(new EntryPair(s, d));
            else if (onlyHere) below++;
            else if (!underUnreadable(s.path(), destinationUnreadable))
                differences.add(new Difference(s.path(), Difference.Kind.ONLY_IN_SOURCE, describe(s), ""));
        }
        for (Map.Entry<PathKey, Entry> e : inThere.entrySet()) {
            Entry d = e.getValue();
            if (inHere.containsKey(e.getKey())) continue;
            if (onlyThere) below++;
            else if (!underUnreadable(d.path(), sourceUnreadable))
                differences.add(new Difference(d.path(), Difference.Kind.ONLY_IN_DESTINATION, "", describe(d)));
        }
        return new Matched(pairs, differences, below);
    }

    private static Entry self(List<Placed> side) {
        for (Placed p : side) if (p.block() != null && p.block().directory() != null) return p.block().directory();
        return null;
    }

    /** The entries named in the directory: its files, and its subdirectories' own entries. */
    private static Map<PathKey, Entry> children(List<Placed> side) {
        Map<PathKey, Entry> out = new LinkedHashMap<>();
        for (Placed p : side) {
            if (p.block() == null) out.put(new PathKey(p.subdirectory().path()), p.subdirectory());
            else for (Entry f : p.block().files()) out.put(new PathKey(f.path()), f);
        }
        return out;
    }

    /** The other walk could not list this path or a directory above it: its absence there says nothing. */
    private static boolean underUnreadable(byte[] path, Set<String> unreadable) {
        if (unreadable.isEmpty()) return false;
        for (byte[] p = path; ; p = PathBytes.parent(p)) {
            if (unreadable.contains(PathBytes.display(p))) return true;
            if (p.length == 0) return false;
        }
    }

    static Iterable<Difference> differencesOf(List<Matched> matched) {
        return matched.stream().flatMap(m -> m.differences().stream()).toList();
    }

    static Iterable<Long> onlyBelowOf(List<Matched> matched) {
        return List.of(matched.stream().mapToLong(Matched::onlyBelow).sum());
    }

    static Iterable<EntryPair> pairsOf(List<Matched> matched) {
        return inPathOrder(matched.stream().flatMap(m -> m.pairs().stream()).toList());
    }

    /** Pairs in path order, as a share computed again gives them. */
    static List<EntryPair> inPathOrder(List<EntryPair> pairs) {
        List<EntryPair> out = new ArrayList<>(pairs);
        out.sort((a, b) -> PathBytes.compare(a.path(), b.path()));
        return out;
    }

    private static String describe(Entry e) {
        return e.type() == FileType.FILE ? "file, " + e.stat().size() + " bytes" : e.type().name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }
}

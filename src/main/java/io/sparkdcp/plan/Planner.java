package io.sparkdcp.plan;

import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.walk.Entry;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a listing into a {@link Plan}. Batches close at {@code batchFiles} entries or
 * {@code batchBytes} bytes, whichever comes first; every name of a hard-linked inode goes into
 * the batch of its first name; files above {@code chunkSize} (not hard-linked) are copied in chunks.
 */
public final class Planner {
    private final int batchFiles;
    private final long batchBytes;
    private final long chunkSize;

    public Planner(int batchFiles, long batchBytes, long chunkSize) {
        if (batchFiles < 1 || batchBytes < 1 || chunkSize < 1)
            throw new IllegalArgumentException("batch files, batch bytes and chunk size must be positive");
        this.batchFiles = batchFiles;
        this.batchBytes = batchBytes;
        this.chunkSize = chunkSize;
    }

    /** Parent directory first, then name: the entries of one directory are contiguous. */
    static final Comparator<Entry> BY_PARENT_THEN_NAME = (a, b) -> {
        int c = PathBytes.compare(a.parent(), b.parent());
        return c != 0 ? c : PathBytes.compare(a.name(), b.name());
    };

    public Plan plan(List<Entry> entries) {
        List<List<Entry>> levels = new ArrayList<>();
        List<Entry> files = new ArrayList<>();
        long totalBytes = 0;
        for (Entry e : entries) {
            if (e.type() == FileType.DIRECTORY) {
                int depth = PathBytes.depth(e.path());
                while (levels.size() <= depth) levels.add(new ArrayList<>());
                levels.get(depth).add(e);
            } else {
                files.add(e);
                if (e.type() == FileType.FILE) totalBytes += e.stat().size();
            }
        }
        files.sort(BY_PARENT_THEN_NAME);
        Map<InodeKey, List<Entry>> linkGroups = hardLinkGroups(files);

        List<FileBatch> batches = new ArrayList<>();
        List<Entry> large = new ArrayList<>();
        List<Entry> current = new ArrayList<>();
        List<HardLink> currentLinks = new ArrayList<>();
        long currentBytes = 0;
        for (Entry e : files) {
            List<Entry> group = e.type() == FileType.FILE && e.stat().nlink() > 1 ? linkGroups.get(InodeKey.of(e)) : null;
            if (group != null && group.get(0) != e) continue; // placed with its group's first name
            if (group == null && e.type() == FileType.FILE && e.stat().size() > chunkSize) {
                large.add(e);
                continue;
            }
            current.add(e);
            if (e.type() == FileType.FILE) currentBytes += e.stat().size();
            if (group != null) {
                for (Entry other : group.subList(1, group.size())) currentLinks.add(new HardLink(other, e.path()));
            }
            if (current.size() + currentLinks.size() >= batchFiles || currentBytes >= batchBytes) {
                batches.add(new FileBatch(batches.size(), current, currentLinks));
                current = new ArrayList<>();
                currentLinks = new ArrayList<>();
                currentBytes = 0;
            }
        }
        if (!current.isEmpty()) batches.add(new FileBatch(batches.size(), current, currentLinks));
        for (List<Entry> level : levels) level.sort(BY_PARENT_THEN_NAME);
        return new Plan(levels, batches, large, entries.size(), totalBytes);
    }

    private static Map<InodeKey, List<Entry>> hardLinkGroups(List<Entry> sortedFiles) {
        Map<InodeKey, List<Entry>> groups = new HashMap<>();
        for (Entry e : sortedFiles) {
            if (e.type() == FileType.FILE && e.stat().nlink() > 1) groups.computeIfAbsent(InodeKey.of(e), k -> new ArrayList<>()).add(e);
        }
        groups.values().removeIf(g -> g.size() < 2);
        return groups;
    }

    private record InodeKey(long dev, long ino) {
        static InodeKey of(Entry e) { return new InodeKey(e.stat().dev(), e.stat().ino()); }
    }

    /**
     * The Spark jobs that make (or, deepest first, finish) directories: a level larger than n is a job
     * of its own, split into tasks of at most n; consecutive smaller levels share one single-task job,
     * in which one engine goes through them level after level. A deep tree of few directories then
     * costs a couple of jobs, not two per level.
     */
    public static List<List<List<Entry>>> directoryWaves(List<List<Entry>> levels, int n, boolean deepestFirst) {
        List<List<Entry>> ordered = new ArrayList<>(levels);
        if (deepestFirst) java.util.Collections.reverse(ordered);
        List<List<List<Entry>>> waves = new ArrayList<>();
        List<Entry> shared = new ArrayList<>();
        for (List<Entry> level : ordered) {
            if (level.size() > n) {
                if (!shared.isEmpty()) waves.add(List.of(shared));
                shared = new ArrayList<>();
                waves.add(partition(level, n));
            } else {
                if (shared.size() + level.size() > n) {
                    waves.add(List.of(shared));
                    shared = new ArrayList<>();
                }
                shared.addAll(level);
            }
        }
        if (!shared.isEmpty()) waves.add(List.of(shared));
        return waves;
    }

    /** Splits a list into lists of at most n, for directory levels with many entries. */
    public static <T> List<List<T>> partition(List<T> items, int n) {
        List<List<T>> out = new ArrayList<>();
        for (int i = 0; i < items.size(); i += n) out.add(new ArrayList<>(items.subList(i, Math.min(items.size(), i + n)))); // a copy: subList views do not serialize
        return out;
    }

}

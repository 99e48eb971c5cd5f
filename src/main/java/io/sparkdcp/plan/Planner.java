package io.sparkdcp.plan;

import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.walk.DirectoryBlock;
import io.sparkdcp.walk.Entry;
import io.sparkdcp.walk.EntrySlice;
import io.sparkdcp.walk.Listing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a listing into a {@link Plan}. Batches close at {@code batchFiles} entries or
 * {@code batchBytes} bytes, whichever comes first; every name of a hard-linked inode goes into
 * the batch of its first name; files above {@code chunkSize} (not hard-linked) are copied in chunks.
 */
public final class Planner implements java.io.Serializable {
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

    /** Chunks a task takes: a batch's bytes' worth. */
    public static long chunksPerTask(long batchBytes, long chunkSize) {
        return Math.max(1, batchBytes / chunkSize);
    }

    /** Plans entries given as objects (tests, small trees). */
    public Plan plan(List<Entry> entries) {
        return plan(Listing.of(entries, List.of()));
    }

    /**
     * Plans a listing. Its blocks are sorted by path and their files by name, so files come parent
     * directory first, then name: the entries of one directory are contiguous, and a batch is a few
     * runs of them.
     */
    public Plan plan(Listing listing) {
        Map<InodeKey, List<Entry>> linkGroups = new HashMap<>();
        long totalBytes = 0;
        for (DirectoryBlock block : listing.blocks()) {
            for (Entry e : block.files()) {
                if (e.type() != FileType.FILE) continue;
                totalBytes += e.stat().size();
                if (e.stat().nlink() > 1) linkGroups.computeIfAbsent(InodeKey.of(e), k -> new ArrayList<>()).add(e);
            }
        }
        linkGroups.values().removeIf(g -> g.size() < 2);
        BatchBuilder batches = new BatchBuilder(linkGroups);
        for (DirectoryBlock block : listing.blocks()) batches.add(block);
        return new Plan(directoryLevels(listing), batches.finish(), batches.large, listing.entryCount(), totalBytes);
    }

    /** The listing's directories by depth, the root's level first. */
    private static List<List<Entry>> directoryLevels(Listing listing) {
        List<List<Entry>> levels = new ArrayList<>();
        for (DirectoryBlock block : listing.blocks()) {
            Entry dir = block.directory();
            if (dir == null) continue;
            int depth = PathBytes.depth(dir.path());
            while (levels.size() <= depth) levels.add(new ArrayList<>());
            levels.get(depth).add(dir);
        }
        return levels;
    }

    /**
     * Plans one share of a listing on its own, as an executor does with its partition of the walk's
     * blocks: batches and large files as {@link #plan(Listing)} cuts them, but every file with more
     * than one link is set aside, to be grouped with its other names across all shares
     * ({@link #linkBatches}). Directories are not planned here. The share is taken in path order, as a
     * listing is: a walk task hands its blocks in the order its threads met them, and batches of
     * neighbouring directories copied that way created files at half the rate (directories whose inodes
     * lie apart on disk, measured on XFS).
     */
    public PartitionPlan planPartition(Iterable<DirectoryBlock> blocks) {
        List<DirectoryBlock> ordered = new ArrayList<>();
        blocks.forEach(ordered::add);
        BatchBuilder batches = new BatchBuilder(null);
        for (DirectoryBlock block : Listing.sorted(ordered, List.of()).blocks()) batches.add(block);
        return new PartitionPlan(batches.finish(), batches.large, batches.linked);
    }

    /**
     * Batches for groups of names of one inode each (gathered from all shares): the group's first name
     * in listing order is copied, the others are linked to it, all in one batch. A group of one (the
     * other names are outside the tree) is an ordinary file, copied whole.
     */
    public List<FileBatch> linkBatches(Iterable<List<Entry>> groups) {
        List<FileBatch> out = new ArrayList<>();
        List<Entry> firsts = new ArrayList<>();
        List<HardLink> links = new ArrayList<>();
        long bytes = 0;
        for (List<Entry> group : groups) {
            List<Entry> names = new ArrayList<>(group);
            names.sort(LISTING_ORDER);
            Entry first = names.get(0);
            firsts.add(first);
            bytes += first.stat().size();
            for (Entry other : names.subList(1, names.size())) links.add(new HardLink(other, first.path()));
            if (firsts.size() + links.size() >= batchFiles || bytes >= batchBytes) {
                out.add(FileBatch.of(out.size(), sortedByParent(firsts), links));
                firsts = new ArrayList<>();
                links = new ArrayList<>();
                bytes = 0;
            }
        }
        if (!firsts.isEmpty()) out.add(FileBatch.of(out.size(), sortedByParent(firsts), links));
        return out;
    }

    /** The order of a listing: parent directory, then name (so a group's first name is the driver plan's). */
    public static final java.util.Comparator<Entry> LISTING_ORDER = (a, b) -> {
        int byParent = PathBytes.compare(a.parent(), b.parent());
        return byParent != 0 ? byParent : PathBytes.compare(a.name(), b.name());
    };

    private static List<Entry> sortedByParent(List<Entry> entries) {
        List<Entry> sorted = new ArrayList<>(entries);
        sorted.sort(LISTING_ORDER);
        return sorted;
    }

    /**
     * Cuts the listing's files into batches of runs, leaving out large files and second names of hard
     * links; without link groups (null), every file with more than one link is left out, in {@code linked}.
     */
    private final class BatchBuilder {
        private final Map<InodeKey, List<Entry>> linkGroups;
        private final List<FileBatch> batches = new ArrayList<>();
        private final List<Entry> large = new ArrayList<>();
        private final List<Entry> linked = new ArrayList<>();
        private List<EntrySlice> slices = new ArrayList<>();
        private List<HardLink> links = new ArrayList<>();
        private int files;
        private long bytes;
        private DirectoryBlock block;
        private int runStart, runEnd, runCount;

        BatchBuilder(Map<InodeKey, List<Entry>> linkGroups) {
            this.linkGroups = linkGroups;
        }

        void add(DirectoryBlock b) {
            block = b;
            b.forEachFile(this::file);
            closeRun();
        }

        private void file(Entry e, int start, int end) {
            if (linkGroups == null && e.type() == FileType.FILE && e.stat().nlink() > 1) {
                closeRun();
                linked.add(e);
                return;
            }
            List<Entry> group = linkGroups != null && e.type() == FileType.FILE && e.stat().nlink() > 1 ? linkGroups.get(InodeKey.of(e)) : null;
            if (group != null && !Arrays.equals(group.get(0).path(), e.path())) { // placed with its group's first name
                closeRun();
                return;
            }
            if (group == null && e.type() == FileType.FILE && e.stat().size() > chunkSize) {
                closeRun();
                large.add(e);
                return;
            }
            if (runCount == 0) runStart = start;
            runEnd = end;
            runCount++;
            files++;
            if (e.type() == FileType.FILE) bytes += e.stat().size();
            if (group != null) {
                for (Entry other : group.subList(1, group.size())) links.add(new HardLink(other, e.path()));
            }
            if (files + links.size() >= batchFiles || bytes >= batchBytes) closeBatch();
        }

        private void closeRun() {
            if (runCount > 0) slices.add(block.slice(runStart, runEnd, runCount));
            runCount = 0;
        }

        private void closeBatch() {
            closeRun();
            if (slices.isEmpty() && links.isEmpty()) return;
            batches.add(new FileBatch(batches.size(), slices, links));
            slices = new ArrayList<>();
            links = new ArrayList<>();
            files = 0;
            bytes = 0;
        }

        List<FileBatch> finish() {
            closeBatch();
            return batches;
        }
    }

    private record InodeKey(long dev, long ino) {
        static InodeKey of(Entry e) { return new InodeKey(e.stat().dev(), e.stat().ino()); }
    }

    /** Splits a list into lists of at most n, for directory levels with many entries. */
    public static <T> List<List<T>> partition(List<T> items, int n) {
        List<List<T>> out = new ArrayList<>();
        for (int i = 0; i < items.size(); i += n) out.add(new ArrayList<>(items.subList(i, Math.min(items.size(), i + n)))); // a copy: subList views do not serialize
        return out;
    }

}

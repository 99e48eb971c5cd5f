package io.sparkdcp.plan;

import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.walk.DirectoryBlock;
import io.sparkdcp.walk.Entry;
import io.sparkdcp.walk.EntrySlice;
import io.sparkdcp.walk.Listing;

import java.util.ArrayList;
import java.util.List;

/**
 * Cuts a listing's files into the copy's tasks. Batches close at {@code batchFiles} entries or
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

    /** Chunks of the given large files. */
    public static List<Chunk> chunksOf(List<LargeFile> files, long chunkSize) {
        List<Chunk> chunks = new ArrayList<>();
        for (LargeFile large : files) {
            Entry f = large.file();
            long size = f.stat().size();
            for (long off = 0; off < size; off += chunkSize)
                chunks.add(new Chunk(f, off, Math.min(chunkSize, size - off), large.destinationIno(), large.temporary()));
        }
        return chunks;
    }

    /** Chunks a task takes: a batch's bytes' worth. */
    public static long chunksPerTask(long batchBytes, long chunkSize) {
        return Math.max(1, batchBytes / chunkSize);
    }

    /**
     * Plans one share of a listing on its own (an arrival of the walk, or an executor's partition of its
     * blocks): batches of runs of a directory's files, closed at the limits; large files apart, to be
     * copied in chunks; every file with more than one link set aside, to be grouped with its other names
     * across all shares ({@link #linkBatches}). Directories are not planned here. The share is taken in
     * path order, as a listing is: a walk task hands its blocks in the order its threads met them, and batches of
     * neighbouring directories copied that way created files at half the rate (directories whose inodes
     * lie apart on disk, measured on XFS).
     */
    public PartitionPlan planPartition(Iterable<DirectoryBlock> blocks) {
        List<DirectoryBlock> ordered = new ArrayList<>();
        blocks.forEach(ordered::add);
        BatchBuilder batches = new BatchBuilder();
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

    /** The order of a listing: parent directory, then name (so a group's first name is the same in every run). */
    public static final java.util.Comparator<Entry> LISTING_ORDER = (a, b) -> {
        int byParent = PathBytes.compare(a.parent(), b.parent());
        return byParent != 0 ? byParent : PathBytes.compare(a.name(), b.name());
    };

    private static List<Entry> sortedByParent(List<Entry> entries) {
        List<Entry> sorted = new ArrayList<>(entries);
        sorted.sort(LISTING_ORDER);
        return sorted;
    }

    /** Cuts the listing's files into batches of runs, leaving out large files and, in {@code linked}, every file with more than one link. */
    private final class BatchBuilder {
        private final List<FileBatch> batches = new ArrayList<>();
        private final List<Entry> large = new ArrayList<>();
        private final List<Entry> linked = new ArrayList<>();
        private List<EntrySlice> slices = new ArrayList<>();
        private int files;
        private long bytes;
        private DirectoryBlock block;
        private int runStart, runEnd, runCount;

        void add(DirectoryBlock b) {
            block = b;
            b.forEachFile(this::file);
            closeRun();
        }

        private void file(Entry e, int start, int end) {
            if (e.type() == FileType.FILE && e.stat().nlink() > 1) {
                closeRun();
                linked.add(e);
                return;
            }
            if (e.type() == FileType.FILE && e.stat().size() > chunkSize) {
                closeRun();
                large.add(e);
                return;
            }
            if (runCount == 0) runStart = start;
            runEnd = end;
            runCount++;
            files++;
            if (e.type() == FileType.FILE) bytes += e.stat().size();
            if (files >= batchFiles || bytes >= batchBytes) closeBatch();
        }

        private void closeRun() {
            if (runCount > 0) slices.add(block.slice(runStart, runEnd, runCount));
            runCount = 0;
        }

        private void closeBatch() {
            closeRun();
            if (slices.isEmpty()) return;
            batches.add(new FileBatch(batches.size(), slices, new ArrayList<>()));
            slices = new ArrayList<>();
            files = 0;
            bytes = 0;
        }

        List<FileBatch> finish() {
            closeBatch();
            return batches;
        }
    }
}

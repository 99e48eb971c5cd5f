package io.sparkdcp.plan;

import io.sparkdcp.job.DepthWave;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Stat;
import io.sparkdcp.walk.DirectoryBlock;
import io.sparkdcp.walk.Entry;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Tag("fast")
class PlannerTest {
    private static long nextInode = 100;

    private static Entry entry(String path, FileType type, long size, long ino, long nlink) {
        Stat s = Stat.of(type).permissions(0644).size(size).blocks((size + 511) / 512).nlink(nlink).dev(1).ino(ino).build();
        return new Entry(PathBytes.of(path), s, null);
    }

    private static Entry file(String path, long size) { return entry(path, FileType.FILE, size, nextInode++, 1); }

    private static Entry dir(String path) { return entry(path, FileType.DIRECTORY, 0, nextInode++, 2); }

    /** One share holding the whole listing of {@code entries}. */
    private static PartitionPlan plan(Planner planner, List<Entry> entries) {
        return planner.planPartition(io.sparkdcp.walk.Listing.of(entries, List.of()).blocks());
    }

    private static List<String> paths(List<Entry> entries) {
        return entries.stream().map(Entry::display).toList();
    }

    @Test
    void batchesCloseAtTheFileCountOrTheByteBudget() {
        List<Entry> entries = new ArrayList<>(List.of(dir("")));
        for (int i = 0; i < 10; i++) entries.add(file("f" + i, 10));
        entries.add(file("heavy1", 900));
        entries.add(file("heavy2", 900));
        PartitionPlan plan = plan(new Planner(4, 1000, 1 << 20), entries);
        for (FileBatch b : plan.batches()) {
            long bytes = b.entries().stream().mapToLong(e -> e.stat().size()).sum();
            assertTrue(b.size() <= 4, "at most 4 entries");
            assertTrue(bytes < 1000 + 900, "closes once the budget is reached");
        }
        assertEquals(12, plan.batches().stream().mapToInt(FileBatch::size).sum());
    }

    @Test
    void entriesOfOneDirectoryAreContiguous() {
        PartitionPlan plan = plan(new Planner(100, 1 << 20, 1 << 20), List.of(dir(""), dir("a"), dir("a-b"),
                file("a/x", 1), file("a-b/y", 1), file("a/z", 1), file("top", 1)));
        assertEquals(List.of("top", "a/x", "a/z", "a-b/y"), paths(plan.batches().get(0).entries()));
    }

    @Test
    void aShareOfAListingSetsItsLinkedFilesAsideAndKeepsItsLargeFiles() {
        Entry linked = entry("d1/link", FileType.FILE, 5, 7, 2);
        Entry big = file("d1/big", 5000);
        PartitionPlan share = new Planner(2, 1 << 20, 1024).planPartition(io.sparkdcp.walk.Listing.of(
                List.of(dir("d1"), linked, big, file("d1/a", 1), file("d1/b", 1), file("d1/c", 1)), List.of()).blocks());
        assertEquals(List.of("d1/link"), paths(share.linked()));
        assertEquals(List.of("d1/big"), paths(share.largeFiles()));
        assertEquals(List.of(List.of("d1/a", "d1/b"), List.of("d1/c")),
                share.batches().stream().map(b -> paths(b.entries())).toList(), "cut at two entries");
    }

    @Test
    void aShareInTheOrderAWalkMetItsDirectoriesIsBatchedInPathOrderAsTheDriversListingIs() {
        List<io.sparkdcp.walk.DirectoryBlock> blocks = new ArrayList<>(io.sparkdcp.walk.Listing.of(List.of(dir("a"), file("a/1", 1),
                file("a/2", 1), dir("b"), file("b/1", 1), dir("c"), file("c/1", 1), file("c/2", 1)), List.of()).blocks());
        java.util.Collections.reverse(blocks);
        PartitionPlan share = new Planner(3, 1 << 20, 1024).planPartition(blocks);
        assertEquals(List.of(List.of("a/1", "a/2", "b/1"), List.of("c/1", "c/2")),
                share.batches().stream().map(b -> paths(b.entries())).toList());
    }

    @Test
    void linkGroupsMetAcrossSharesCopyTheirFirstNameInListingOrderAndLinkTheRest() {
        List<Entry> group = List.of(entry("b/x", FileType.FILE, 5, 7, 3), entry("a-b/x", FileType.FILE, 5, 7, 3),
                entry("a/x", FileType.FILE, 5, 7, 3));
        List<Entry> alone = List.of(entry("c/only", FileType.FILE, 5, 8, 2));
        List<FileBatch> batches = new Planner(3, 1 << 20, 1024).linkBatches(List.of(group, alone));
        assertEquals(List.of("a/x"), paths(batches.get(0).entries()), "parent a sorts before a-b: the listing's order");
        assertEquals(List.of("a-b/x", "b/x"), batches.get(0).links().stream().map(l -> l.entry().display()).toList());
        assertEquals(List.of("c/only"), paths(batches.get(1).entries()), "a group of one is an ordinary file, in the next batch");
        assertEquals(List.of(), batches.get(1).links());
    }

    @Test
    void largeFilesAreChunkedButHardLinkedOnesAreSetAside() {
        Entry big = file("big", 10 * 1024 + 1);
        Entry linkedBig1 = entry("lb1", FileType.FILE, 50_000, 9, 2);
        Entry linkedBig2 = entry("lb2", FileType.FILE, 50_000, 9, 2);
        PartitionPlan plan = plan(new Planner(100, 1 << 30, 1024), List.of(dir(""), big, linkedBig1, linkedBig2, file("small", 10)));
        assertEquals(List.of("big"), paths(plan.largeFiles()));
        assertEquals(List.of("lb1", "lb2"), paths(plan.linked()));
        List<Chunk> chunks = Planner.chunksOf(plan.largeFiles().stream().map(e -> new io.sparkdcp.plan.LargeFile(e, 0, new byte[0])).toList(), 1024);
        assertEquals(11, chunks.size());
        assertEquals(1, chunks.get(10).length());
        assertEquals(10 * 1024 + 1, chunks.stream().mapToLong(Chunk::length).sum());
    }

    @Test
    void smallConsecutiveLevelsShareOneTask() {
        assertEquals(List.of(new DepthWave(0, 2, 1, 10)), DepthWave.of(new long[]{1, 2, 1}, 10, 2));
    }

    @Test
    void aLevelLargerThanABatchIsAParallelJobOfItsOwn() {
        assertEquals(List.of(new DepthWave(0, 0, 1, 2), new DepthWave(1, 1, 3, 2), new DepthWave(2, 3, 1, 2)),
                DepthWave.of(new long[]{1, 5, 1, 1}, 2, 2));
    }

    @Test
    void aLevelThatFillsEveryTaskSlotIsSplitAcrossThemBelowABatch() {
        assertEquals(List.of(new DepthWave(0, 0, 1, 2000), new DepthWave(1, 1, 2, 500)), DepthWave.of(new long[]{1, 1000}, 2000, 2));
        assertEquals(List.of(new DepthWave(0, 1, 1, 2000)), DepthWave.of(new long[]{1, 150}, 2000, 2), "a share of 75 each: not worth a task");
        assertEquals(List.of(new DepthWave(0, 0, 10, 100)), DepthWave.of(new long[]{1000}, 2000, 64), "as many tasks as slots it fills with 100 each");
    }

    /**
     * The driver plans a copy on threads as the walk lists it, one directory at a time: each file is
     * decoded from the block's bytes once (the total bytes are counted in the same pass). Measured as
     * bytes allocated against decoding the block once ({@code files()}), which holds its entries so
     * that none can be optimised away: a second pass doubled it.
     */
    @Test
    void aStreamedPlanDecodesEachFileOnce() {
        List<Entry> files = new ArrayList<>();
        for (int i = 0; i < 1000; i++) files.add(file("d/f" + i, 100));
        DirectoryBlock block = DirectoryBlock.of(PathBytes.of("d"), dir("d"), files);
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long decodedOnce = Long.MAX_VALUE, streamed = Long.MAX_VALUE;
        for (int round = 0; round < 50; round++) { // the fewest of many: after the JIT has settled
            long before = threads.getCurrentThreadAllocatedBytes();
            List<Entry> decoded = block.files();
            decodedOnce = Math.min(decodedOnce, threads.getCurrentThreadAllocatedBytes() - before);
            assertEquals(1000, decoded.size());
            Planner planner = new Planner(250, 1L << 30, 1L << 20);
            before = threads.getCurrentThreadAllocatedBytes();
            List<FileBatch> batches = planner.planPartition(List.of(block)).batches();
            streamed = Math.min(streamed, threads.getCurrentThreadAllocatedBytes() - before);
            assertEquals(4, batches.size());
        }
        assertTrue(streamed < 1.5 * decodedOnce, streamed + " bytes allocated to plan a block whose one decoding allocates " + decodedOnce);
    }

    @Test
    void rejectsNonPositiveLimits() {
        assertThrows(IllegalArgumentException.class, () -> new Planner(0, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new Planner(1, 1, 0));
    }
}

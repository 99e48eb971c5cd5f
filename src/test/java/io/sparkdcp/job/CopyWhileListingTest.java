package io.sparkdcp.job;

import io.sparkdcp.job.exec.JobOptions;
import io.sparkdcp.job.exec.LocalPhaseRunner;
import io.sparkdcp.plan.FileBatch;
import io.sparkdcp.plan.HardLink;
import io.sparkdcp.plan.Planner;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.progress.Work;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.testing.LocalCopy;
import io.sparkdcp.testing.MountedSource;
import io.sparkdcp.testing.TreeComparator;
import io.sparkdcp.walk.DirectoryBlock;
import io.sparkdcp.walk.Entry;
import io.sparkdcp.walk.Listing;
import io.sparkdcp.walk.TreeWalker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A copy on this JVM's threads copies the first batches while the walk still lists the source. */
class CopyWhileListingTest {
    @RegisterExtension
    static final MountedSource source = MountedSource.richTree("whilelisting");

    @Test
    void filesAreCopiedBeforeTheWalkListsItsLastDirectory() throws Exception {
        Path root = source.tree().root();
        Path dst = Files.createDirectory(source.newDestinationPath());
        long directories;
        try (Stream<Path> all = Files.walk(root)) {
            directories = all.filter(p -> Files.isDirectory(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)).count();
        }
        LocalPhaseRunner runner = new LocalPhaseRunner(2);
        AtomicInteger listed = new AtomicInteger();
        AtomicLong copiedWhileListing = new AtomicLong(-1);
        List<String> events = new CopyOnWriteArrayList<>();
        // Batches of 2: the root's two small files fill one as soon as the root is listed.
        JobOptions options = LocalCopy.defaults().withBatchFiles(2).jobOptions(root, dst);
        CopyJob job = new CopyJob(options, runner, line -> {}, (Work total) -> events.add("planned")).onListed(block -> {
            if (listed.incrementAndGet() < directories) return;
            // The walk's last directory, held until a copied entry shows (a walk listed to its end before
            // any copy would wait here in vain).
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (runner.done().entries() == 0 && System.nanoTime() < deadline) Thread.onSpinWait();
            copiedWhileListing.set(runner.done().entries());
            events.add("last directory listed");
        });
        CopyReport report = job.run();

        assertEquals(directories, listed.get(), "every directory was handed over as the walk listed it");
        assertTrue(copiedWhileListing.get() > 0, "entries copied before the walk's last directory: " + copiedWhileListing.get());
        assertEquals(List.of("last directory listed", "planned"), events, "the totals are told once the walk has ended");
        assertEquals(List.of(), report.counts().failures());
        assertEquals(source.tree().entryCount() + 1, report.counts().copied(), "every entry and the root, once each");
        TreeComparator.assertSameTree(root, dst);
    }

    @Test
    void aPlanMadeAsTheWalkListsHoldsEveryEntryOnce() {
        List<DirectoryBlock> arrived = new CopyOnWriteArrayList<>();
        Listing listing = new TreeWalker(4, true).walk(PathBytes.of(source.tree().root().toString()), arrived::add);
        Planner planner = new Planner(3, 1L << 30, 1L << 20);
        List<FileBatch> batches = new ArrayList<>();
        List<Entry> large = new ArrayList<>();
        java.util.Map<List<Long>, List<Entry>> linked = new java.util.TreeMap<>(java.util.Comparator.comparing(Object::toString));
        for (DirectoryBlock b : arrived) { // each directory an arrival of its own, cut on its own
            io.sparkdcp.plan.PartitionPlan share = planner.planPartition(List.of(b));
            batches.addAll(share.batches());
            large.addAll(share.largeFiles());
            for (Entry e : share.linked()) linked.computeIfAbsent(List.of(e.stat().dev(), e.stat().ino()), k -> new ArrayList<>()).add(e);
        }
        batches.addAll(planner.linkBatches(linked.values()));
        List<String> listed = new ArrayList<>();
        for (DirectoryBlock b : listing.blocks()) for (Entry e : b.files()) listed.add(e.display());
        listed.sort(null);

        assertEquals(listed, paths(batches, large));
        assertTrue(batches.stream().filter(b -> b.links().isEmpty()).allMatch(b -> b.size() <= 3),
                "batches without hard links close at their size");
    }

    /** Every path a plan copies or links, sorted: each once. */
    private static List<String> paths(List<FileBatch> batches, List<Entry> large) {
        List<String> out = new ArrayList<>();
        for (FileBatch b : batches) {
            for (Entry e : b.entries()) out.add(e.display());
            for (HardLink l : b.links()) out.add(l.entry().display());
        }
        for (Entry e : large) out.add(e.display());
        out.sort(null);
        return out;
    }
}

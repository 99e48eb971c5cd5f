package io.sparkdcp.job.exec;

import io.sparkdcp.job.CopyJob;
import io.sparkdcp.job.exec.DistributedWalk;
import io.sparkdcp.job.exec.JobOptions;
import io.sparkdcp.job.exec.LocalPhaseRunner;
import io.sparkdcp.job.exec.SourceListing;
import io.sparkdcp.job.listing.ListingOptions;
import io.sparkdcp.job.listing.WalkMode;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.roots.UsageException;
import io.sparkdcp.testing.Listings;
import io.sparkdcp.testing.LocalCopy;
import io.sparkdcp.testing.MountedSource;
import io.sparkdcp.testing.TreeComparator;
import io.sparkdcp.walk.Listing;
import io.sparkdcp.walk.SavedListing;
import io.sparkdcp.walk.TreeWalker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every way of getting the source's listing gives the same one: the driver's walk, the executors' rounds, a saved listing read back. */
class ListingSourcesTest {
    @RegisterExtension
    static final MountedSource SOURCE = MountedSource.richTree("listings");

    @TempDir
    Path tmp;

    private byte[] root() { return PathBytes.of(SOURCE.source().toString()); }

    private Listing driverWalk() {
        return new TreeWalker(4, true).walk(root());
    }

    @Test
    void theDistributedWalkListsWhatTheDriverWalkLists() {
        List<String> log = new ArrayList<>();
        // Five entries per task and round: many rounds, each dealing out a frontier of many subtrees.
        Listing distributed = new DistributedWalk(new LocalPhaseRunner(3), 2, 5, log::add).walk(root(), true);
        Listings.assertSameListing(driverWalk(), distributed);
        int rounds = Integer.parseInt(log.get(0).replaceAll("\\D+", " ").trim().split(" ")[0]);
        assertTrue(rounds >= 3, log.toString());
    }

    /** Without Spark the rounds run as tasks on this JVM's threads: the log says so, and counts one round as one. */
    @Test
    void aDistributedWalkOnThreadsSaysWhereItRanAndCountsItsRounds() throws Exception {
        Files.createDirectories(tmp.resolve("small/sub"));
        Files.writeString(tmp.resolve("small/sub/a.txt"), "alpha");
        List<String> log = new ArrayList<>();
        Listing listing = new DistributedWalk(new LocalPhaseRunner(3), 2, log::add).walk(PathBytes.of(tmp.resolve("small").toString()), false);
        assertEquals(3, listing.entryCount());
        assertEquals(List.of("walked in parallel tasks on 3 threads in 1 round"), log);
    }

    @Test
    void aWalkWhoseBudgetIsSpentStillListsItsFirstDirectory() {
        try (io.sparkdcp.posix.Fd root = TreeWalker.openRoot(root())) {
            var top = new io.sparkdcp.walk.Subdirectory(PathBytes.EMPTY, io.sparkdcp.posix.Posix.fstat(root));
            TreeWalker.Part part = new TreeWalker(2, true).walk(root, List.of(top), new TreeWalker.Budget(0, 0));
            assertEquals(1, part.blocks().size(), "the root, listed");
            assertTrue(part.frontier().size() > 1, "its subdirectories handed back: " + part.frontier().size());
        }
    }

    @Test
    void aCopyFromTheDistributedWalkIsExact() throws Exception {
        Path dst = Files.createDirectory(SOURCE.newDestinationPath());
        CopyReport r = LocalCopy.defaults().withListing(new ListingOptions(WalkMode.DISTRIBUTED, null, null)).run(SOURCE.source(), dst);
        assertEquals(List.of(), r.counts().failures());
        TreeComparator.assertSameTree(SOURCE.source(), dst);
    }

    @Test
    void aSavedListingReadsBackTheSame() {
        Listing walked = driverWalk();
        List<Failure> errors = List.of(new Failure("a/b\\x01", "openat", "EACCES", "Permission denied"),
                new Failure("c", "statx", "EIO", "Input/output error"));
        Listing withErrors = new Listing(walked.blocks(), errors);
        String dir = tmp.resolve("saved").toString();

        SavedListing.write(dir, root(), true, withErrors);
        Listing back = SavedListing.read(dir);

        Listings.assertSameListing(withErrors, back);
        SavedListing.Header header = SavedListing.header(dir);
        assertEquals(SOURCE.source().toString(), PathBytes.display(header.sourceRoot()));
        assertEquals(walked.entryCount(), header.entries());
        assertTrue(header.projectIds());
        // Saving again over the same listing is what a retried run does.
        SavedListing.write(dir, root(), true, walked);
        assertEquals(List.of(), SavedListing.read(dir).errors());
    }

    @Test
    void aCopyFromASavedListingIsExact() throws Exception {
        String dir = tmp.resolve("for-copy").toString();
        LocalCopy saving = LocalCopy.defaults().withListing(new ListingOptions(WalkMode.DRIVER, null, dir));
        Path first = Files.createDirectory(SOURCE.newDestinationPath());
        saving.run(SOURCE.source(), first);
        Path second = Files.createDirectory(SOURCE.newDestinationPath());
        List<String> log = new ArrayList<>();
        JobOptions reuse = LocalCopy.defaults().withListing(new ListingOptions(WalkMode.AUTO, dir, null)).jobOptions(SOURCE.source(), second);
        CopyReport r = new CopyJob(reuse, new LocalPhaseRunner(3), log::add).run();
        assertEquals(List.of(), r.counts().failures());
        assertTrue(log.get(0).startsWith("read the listing saved in " + dir), log.toString());
        TreeComparator.assertSameTree(SOURCE.source(), second);
    }

    @Test
    void anUnfinishedForeignOrMismatchedListingIsRefusedWithItsReason() throws Exception {
        String dir = tmp.resolve("cut").toString();
        SavedListing.write(dir, root(), false, driverWalk());

        JobOptions withProjects = LocalCopy.defaults().withListing(new ListingOptions(WalkMode.AUTO, dir, null))
                .jobOptions(SOURCE.source(), SOURCE.newDestinationPath());
        UsageException noProjects = assertThrows(UsageException.class, () -> SourceListing.check(withProjects));
        assertTrue(noProjects.getMessage().contains("without project IDs"), noProjects.getMessage());

        JobOptions otherSource = LocalCopy.defaults().withoutProjectIds().withListing(new ListingOptions(WalkMode.AUTO, dir, null))
                .jobOptions(SOURCE.source().resolve("dirs"), SOURCE.newDestinationPath());
        UsageException mismatch = assertThrows(UsageException.class, () -> SourceListing.check(otherSource));
        assertTrue(mismatch.getMessage().contains("not of SRC"), mismatch.getMessage());

        Files.delete(tmp.resolve("cut/_SUCCESS"));
        IllegalArgumentException cut = assertThrows(IllegalArgumentException.class, () -> SavedListing.read(dir));
        assertTrue(cut.getMessage().contains("incomplete"), cut.getMessage());

        Files.writeString(tmp.resolve("cut/notes.txt"), "mine");
        IllegalArgumentException foreign = assertThrows(IllegalArgumentException.class,
                () -> SavedListing.write(dir, root(), true, driverWalk()));
        assertTrue(foreign.getMessage().contains("notes.txt"), foreign.getMessage());
        assertEquals("mine", Files.readString(tmp.resolve("cut/notes.txt")));
    }
}

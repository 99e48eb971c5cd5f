package io.sparkdcp.job.exec;

import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.copy.options.RootFile;
import io.sparkdcp.job.listing.ListingOptions;
import io.sparkdcp.job.listing.WalkMode;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.report.Counted;
import io.sparkdcp.roots.UsageException;
import io.sparkdcp.walk.DirectoryBlock;
import io.sparkdcp.walk.Listing;
import io.sparkdcp.walk.SavedListing;
import io.sparkdcp.walk.TreeWalker;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/** The one way a job gets its listing of the source: a saved listing, or a walk on the driver or the executors, saved if asked. */
public final class SourceListing {
    /** Who listed the source, as the report says it. */
    public static final String DRIVER = "driver";
    public static final String EXECUTORS = "executors";
    public static final String SAVED = "saved";

    private SourceListing() {}

    /**
     * Checks, before anything runs, that a listing to reuse is complete and of this source, and that a
     * directory to save to holds nothing else.
     */
    public static void check(JobOptions options) {
        ListingOptions how = options.listing();
        CopyOptions copy = options.copy();
        if (copy.rootFile() != null && (how.listing() != null || how.saveListing() != null || how.filter().listed() != null))
            throw new UsageException("source " + PathBytes.display(copy.sourceShown()) + " is not a directory: --listing, "
                    + "--save-listing and --files-from list a directory's tree; give them a directory");
        try {
            if (how.saveListing() != null) SavedListing.checkWritable(how.saveListing());
            if (how.listing() == null) return;
            SavedListing.Header header = SavedListing.header(how.listing());
            if (!Arrays.equals(header.sourceRoot(), copy.sourceRoot()))
                throw new UsageException("listing " + how.listing() + " is of " + PathBytes.display(header.sourceRoot())
                        + ", not of SRC " + PathBytes.display(copy.sourceRoot()));
            if (copy.projectIds() && !header.projectIds())
                throw new UsageException("listing " + how.listing() + " was saved without project IDs: "
                        + "use --no-projid, or save it again with them");
        } catch (IllegalArgumentException | java.io.UncheckedIOException e) {
            throw new UsageException(e.getMessage());
        }
    }

    /** Who lists the source: the driver, the executors (a distributed walk), or nobody (a saved listing). */
    public static String listedBy(JobOptions options, PhaseRunner runner) {
        ListingOptions how = options.listing();
        if (how.listing() != null) return SAVED;
        if (options.copy().rootFile() != null) return DRIVER; // one entry: a stat on the driver
        return walksDistributed(how.walk(), runner.spansNodes()) ? EXECUTORS : DRIVER;
    }

    /** The one rule for where SRC is walked: on the runner's tasks with --walk distributed, or auto on a cluster. */
    public static boolean walksDistributed(WalkMode walk, boolean spansNodes) {
        return walk == WalkMode.DISTRIBUTED || (walk == WalkMode.AUTO && spansNodes);
    }

    /**
     * True when a distributed walk's listing may stay on the runner's tasks: not for --files-from, whose
     * check of listed paths SRC lacks needs the whole listing on the driver, nor for a file as SRC (one
     * entry, a stat on the driver).
     */
    public static boolean staysDistributed(JobOptions options, boolean spansNodes) {
        return options.listing().filter().listed() == null && options.copy().rootFile() == null
                && walksDistributed(options.listing().walk(), spansNodes);
    }

    private static List<Failure> concat(List<Failure> a, List<Failure> b) {
        List<Failure> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /**
     * The listing ({@code runner}: where a distributed walk runs), each of its directories also handed to {@code listed}: by a walk on this node as soon
     * as it is listed (from the walk's threads, a parent before its subdirectories), otherwise once the
     * whole listing is there.
     */
    public static Listing of(JobOptions options, PhaseRunner runner, Consumer<String> log, Consumer<DirectoryBlock> listed) {
        boolean walkedHere = options.listing().listing() == null && options.copy().rootFile() == null
                && listedBy(options, runner).equals(DRIVER);
        Listing listing = list(options, runner, log, walkedHere ? listed : block -> {});
        if (!walkedHere) listing.blocks().forEach(listed);
        return listing;
    }

    private static Listing list(JobOptions options, PhaseRunner runner, Consumer<String> log, Consumer<DirectoryBlock> listed) {
        ListingOptions how = options.listing();
        CopyOptions copy = options.copy();
        if (how.listing() != null) {
            Listing saved = SavedListing.read(how.listing());
            log.accept(String.format("read the listing saved in %s: %s", how.listing(), Counted.of(saved.entryCount(), "entry")));
            return saved;
        }
        RootFile file = copy.rootFile();
        if (file != null) {
            // rsync applies the rules to a file named as SRC too, by its own name.
            if (!how.filter().lists(file.sourceName(), false)) return new Listing(List.of(), List.of());
            return TreeWalker.walkOne(copy.sourceRoot(), file.sourceName(), file.destinationName(), true);
        }
        Listing walked = listedBy(options, runner).equals(EXECUTORS)
                ? new DistributedWalk(runner, options.walkThreads(), log).walk(copy.sourceRoot(), copy.readsFsXattr(), how.filter())
                : new TreeWalker(options.walkThreads(), copy.readsFsXattr(), how.filter()).walk(copy.sourceRoot(), listed);
        List<Failure> missing = how.filter().missing(walked);
        Listing listing = missing.isEmpty() ? walked : new Listing(walked.blocks(), concat(walked.errors(), missing));
        if (how.saveListing() != null) {
            SavedListing.write(how.saveListing(), copy.sourceRoot(), copy.readsFsXattr(), listing);
            log.accept(String.format("saved the listing (%s) to %s", Counted.of(listing.entryCount(), "entry"), how.saveListing()));
        }
        return listing;
    }
}

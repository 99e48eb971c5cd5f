package io.sparkdcp.job;

import io.sparkdcp.copy.BatchResult;
import io.sparkdcp.copy.CopyCounts;
import io.sparkdcp.copy.CopyEngine;
import io.sparkdcp.copy.options.CopyModes;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.copy.DirectoryBatch;
import io.sparkdcp.itemlog.TaskItemLog;
import io.sparkdcp.job.exec.JobOptions;
import io.sparkdcp.job.exec.Listed;
import io.sparkdcp.job.exec.PathKey;
import io.sparkdcp.job.exec.PhaseRunner;
import io.sparkdcp.job.exec.Spread;
import io.sparkdcp.job.exec.TaskFault;
import io.sparkdcp.job.exec.TaskWork;
import io.sparkdcp.job.inflight.DirectoriesInFlight;
import io.sparkdcp.job.inflight.FilesInFlight;
import io.sparkdcp.job.ledger.LedgerJoin;
import io.sparkdcp.job.ledger.LedgerRun;
import io.sparkdcp.job.listing.ListingSummary;
import io.sparkdcp.plan.DeletionPlanner;
import io.sparkdcp.plan.FileBatch;
import io.sparkdcp.plan.LargeFile;
import io.sparkdcp.plan.PartitionPlan;
import io.sparkdcp.plan.Planner;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.progress.Work;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.report.ListedSource;
import io.sparkdcp.report.Counted;
import io.sparkdcp.roots.DeletionScope;
import io.sparkdcp.roots.HeldRoots;
import io.sparkdcp.roots.RootHolds;
import io.sparkdcp.walk.DirectoryBlock;
import io.sparkdcp.walk.Entry;
import io.sparkdcp.walk.Filter;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;

/**
 * A copy, or a sync (the options' modes say which; with {@link #deleting} a sync first removes what SRC
 * lacks), written once as its phases over {@link Spread}s that live wherever the runner's {@link Listed}
 * keeps the listing: list → [delete extraneous] → make directories, parents first → copy file batches
 * (hard-link groups met in one batch) → large files: prepare, chunks, finish → finish directories,
 * deepest first → report. On this JVM's threads the first three overlap: each arrival of listed
 * directories is made at once and its batches start copying while the walk goes on.
 */
public final class CopyJob {
    /** Path shown for failures of the job as a whole rather than of one entry. */
    public static final String WHOLE_TREE = ".";

    private final JobOptions options;
    private final PhaseRunner runner;
    private final Consumer<String> log;
    private final Consumer<Work> planned;
    private boolean delete;
    /** This run made DST's root (before the job): a sync then counts it as copied, as a copy does, and the engine creates without looking first. */
    private boolean destinationCreated;
    private Consumer<DirectoryBlock> onListed = block -> {};
    private TaskFault fault = TaskFault.NONE;
    private long walkEntriesPerTask = Long.MAX_VALUE;
    private RootHolds holds;

    public CopyJob(JobOptions options, PhaseRunner runner, Consumer<String> log) {
        this(options, runner, log, total -> {});
    }

    /** @param planned told the whole job's entries and bytes once the source is listed (for progress) */
    public CopyJob(JobOptions options, PhaseRunner runner, Consumer<String> log, Consumer<Work> planned) {
        this.options = options;
        this.runner = runner;
        this.log = log;
        this.planned = planned;
    }

    /**
     * A sync that first removes what SRC no longer has (deepest first, through the engine's safe
     * deletion). Deletion needs a complete listing of SRC: after any walk error nothing is deleted, and
     * the refusal is a failure of its own.
     */
    public CopyJob deleting(boolean delete) {
        if (delete && !options.copy().modes().sync()) throw new IllegalArgumentException("--delete needs the sync mode");
        this.delete = delete;
        return this;
    }

    /** Tells the job that this run created DST's root. */
    public CopyJob destinationCreated(boolean created) {
        this.destinationCreated = created;
        return this;
    }

    /** Called with each directory as it is listed, before the copy sees it (tests hold the walk there). */
    CopyJob onListed(Consumer<DirectoryBlock> hook) {
        this.onListed = hook;
        return this;
    }

    /** Called after each writing task's work, where it ran (tests kill attempts with it). */
    public CopyJob fault(TaskFault hook) {
        this.fault = hook;
        return this;
    }

    /** A walk task's budget of entries per round besides its time (tests force many rounds). */
    public CopyJob walkEntriesPerTask(long entries) {
        this.walkEntriesPerTask = entries;
        return this;
    }

    /** Keeps DST's lock in {@code holds} once the job is done, for its caller to release after the report; else released then. */
    public CopyJob holdingRootsIn(RootHolds holds) {
        this.holds = holds;
        return this;
    }

    /** The whole copy, holding DST's lock (from before the walk) and with both roots pinned for every task. */
    public CopyReport run() {
        long start = System.nanoTime();
        long startedWall = LedgerRun.wallNanos(); // before the walk's first stat: what the ledger may record is settled by then
        if (holds != null) holds.releaseEarlierRoots();
        HeldRoots roots = HeldRoots.take(options.copy());
        try (TaskItemLog failures = TaskItemLog.forDriver(options.copy())) {
            CopyOptions pinned = roots.pinned();
            JobOptions job = options.withCopy(pinned.withRoots(pinned.roots().withDestinationNew(destinationCreated)));
            CopyReport report;
            try (Listed source = runner.list(job, log, onListed, walkEntriesPerTask)) {
                report = new Recipe(job, source, new CopyCounts(failures.log()), startedWall).run(start);
            }
            failures.commit();
            return report;
        } finally {
            RootHolds.release(roots, holds);
        }
    }

    /** One run's phases over one listing; {@code counts} is the driver's, which logs the job's own failures. */
    private final class Recipe {
        private final JobOptions job;
        private final CopyOptions copy;
        private final Listed source;
        private final CopyCounts counts;
        private final Planner planner;
        private final boolean sync;
        private final long startedWall;

        Recipe(JobOptions job, Listed source, CopyCounts counts, long startedWall) {
            this.startedWall = startedWall;
            this.job = job;
            this.copy = job.copy();
            this.source = source;
            this.counts = counts;
            this.planner = new Planner(job.batchFiles(), job.batchBytes(), copy.chunkSize());
            this.sync = copy.modes().sync();
        }

        CopyReport run(long start) {
            // A file as SRC maps onto one name: there is nothing beside it that SRC could lack (rsync's rule).
            boolean deletes = delete && copy.rootFile() == null;
            LedgerRun ledger = copy.rootFile() == null ? LedgerRun.of(job, log, startedWall) : null;
            if (ledger != null) ledger.check(source); // a damaged ledger is found before anything is deleted or copied
            Iterable<Spread<DirectoryBlock>> arrivals = deletes ? List.of(deleteExtraneous())
                    : ledger != null ? List.of(source.wholeListing()) : source.arrivals();
            Spread<LedgerJoin.Decided> decided = null;
            if (ledger != null) { // met with the whole listing, after the deletions (which move DST's directories' times)
                decided = ledger.decide(arrivals.iterator().next(), source, copy);
                arrivals = List.of(decided.mapShares(LedgerJoin::left));
            }
            Spread<PathKey> created = sync ? source.spread(destinationCreated ? List.of(new PathKey(PathBytes.EMPTY)) : List.of()) : null;
            Spread<Entry> directories = null, linked = null, large = null;
            CopyCounts made = new CopyCounts();
            ListingSummary listing;
            try (Listed.SpreadFeed<FileBatch> files = source.start("copy files", copy, faulted("copy files", new FilesInFlight(job.threadsPerTask())))) {
                for (Spread<DirectoryBlock> arrival : arrivals) {
                    // Kept apart from the listing (about one entry in a hundred): each wave reads these, not the listing again.
                    Spread<Entry> listed = arrival.mapShares(CopyJob::directoriesOf).kept();
                    directories = plus(directories, listed);
                    created = makeDirectories(listed, listed.countBy(CopyJob::depth, "count the directories by depth"), created, made);
                    // Not kept: cut again from the kept blocks where they are needed (kept, they were a second copy of
                    // the listing). A local: the function travels to the executors without this recipe.
                    Planner cut = planner;
                    Spread<PartitionPlan> plans = arrival.mapShares(share -> List.of(cut.planPartition(share)));
                    files.submit(plans.mapShares(CopyJob::batches));
                    linked = plus(linked, plans.mapShares(CopyJob::linked));
                    large = plus(large, plans.mapShares(CopyJob::largeFiles));
                }
                listing = listed(ledger);
                counts.merge(made);
                if (listing.linkedFiles() > 0) files.submit(linkBatches(linked, listing.linkedFiles()));
                counts.merge(files.finish());
            }
            if (decided != null) counts.merge(compareContents(decided.mapShares(LedgerJoin::suspect)));
            if (large != null && listing.largestFile() > copy.chunkSize()) copyLargeFiles(large);
            if (directories != null) finishDirectories(directories, created, listing.directoriesByDepth());
            if (ledger != null) ledger.write(decided, counts, listing.complete(), copy);
            return report(listing, start, ledger == null ? 0 : ledger.proven());
        }

        /** The listing is whole: said in the log, its totals told for progress, its errors counted before any phase's. */
        private ListingSummary listed(LedgerRun ledger) {
            ListingSummary listing = source.summary();
            log.accept(String.format("listed %s (%s in files): %s in %s", Counted.of(listing.entries(), "entry"),
                    Counted.of(listing.fileBytes(), "byte"), Counted.of(Arrays.stream(listing.directoriesByDepth()).sum(), "directory"),
                    Counted.of(listing.directoriesByDepth().length, "level")));
            // What the engine is given: the listing's data bytes, but what the ledger proved unchanged.
            planned.accept(ledger != null ? ledger.toCopy() : new Work(listing.entries(), listing.dataBytes()));
            listing.addErrorsTo(counts, f -> f);
            return listing;
        }

        private CopyReport report(ListingSummary listing, long start, long ledgerUnchanged) {
            return new CopyReport(PathBytes.display(copy.sourceShown()), PathBytes.display(copy.destinationShown()), copy,
                    new ListedSource(listing.entries(), listing.fileBytes(), listing.complete(), source.listedBy(),
                            job.listing().savedDir(), ledgerUnchanged), counts, runner.steps(), System.nanoTime() - start);
        }

        /** Makes directories wave by wave, parents first; a sync adds those this run created to {@code created}. */
        private Spread<PathKey> makeDirectories(Spread<Entry> directories, long[] byDepth, Spread<PathKey> created, CopyCounts made) {
            DirectoriesInFlight make = new DirectoriesInFlight(job.threadsPerTask(), false);
            for (DepthWave wave : DepthWave.of(byDepth, job.batchFiles(), runner.parallelism())) {
                String phase = "make directories" + wave;
                TaskWork<List<Entry>> work = faulted(phase, (engine, dirs) -> make.run(engine, DepthWave.sorted(dirs, false)));
                Spread<Entry> tasks = wave.tasksOf(directories, phase);
                if (!sync) {
                    made.merge(tasks.run(phase, copy, work));
                    continue;
                }
                created = created.union(tasks.runKept(phase, copy, work, made).mapShares(CopyJob::createdPaths));
            }
            return created;
        }

        /**
         * The files the ledger suspects (size and mtime as recorded, ctime or inode moved: data may have been rewritten
         * with its mtime put back), compared by their contents as sync --contents compares every file, in a copy too
         * (whose own rule keeps a file by its stats): each is then recorded as identical only once its bytes were.
         */
        private CopyCounts compareContents(Spread<DirectoryBlock> suspect) {
            Planner cut = planner;
            FilesInFlight inFlight = new FilesInFlight(job.threadsPerTask());
            CopyOptions contents = copy.withModes(copy.modes().with(CopyModes.Mode.SYNC, true).with(CopyModes.Mode.CONTENTS, true));
            String phase = "compare contents of files";
            return suspect.mapShares(share -> List.of(cut.planPartition(share))).mapShares(CopyJob::batches).run(phase, contents,
                    faulted(phase, (engine, batches) -> {
                        CopyCounts done = new CopyCounts();
                        for (FileBatch b : batches) done.merge(inFlight.run(engine, b).counts());
                        return BatchResult.of(done);
                    }));
        }

        /** Files with more than one link, met with their other names: one batch holds a group, its first name copied, the rest linked. */
        private Spread<FileBatch> linkBatches(Spread<Entry> linked, long linkedFiles) {
            int groups = (int) Math.max(1, Math.min(Integer.MAX_VALUE, linkedFiles / job.batchFiles()));
            Planner cut = planner;
            return linked.grouped(e -> new InodeKey(e.stat().dev(), e.stat().ino()), groups).mapShares(byInode -> {
                List<List<Entry>> names = new ArrayList<>();
                for (List<Entry> g : byInode) {
                    List<Entry> group = new ArrayList<>(g);
                    group.sort(Planner.LISTING_ORDER);
                    names.add(group);
                }
                // In an order of their own, not the walk's or the shuffle's: a share computed again cuts the same batches.
                names.sort((a, b) -> Planner.LISTING_ORDER.compare(a.get(0), b.get(0)));
                return cut.linkBatches(names);
            });
        }

        /** Large files: prepared (created at their size), copied in chunk tasks, then finished unless a chunk failed. */
        private void copyLargeFiles(Spread<Entry> large) {
            var prepareTasks = large.dealt(job.batchFiles(), "plan the large files");
            if (prepareTasks.isEmpty()) return;
            Spread<LargeFile> toCopy = prepareTasks.get()
                    .runKept("prepare large files", copy, faulted("prepare large files", CopyEngine::prepareLargeFiles), counts)
                    .mapShares(CopyJob::needChunks);
            long chunkSize = copy.chunkSize();
            var chunkTasks = toCopy.mapShares(files -> Planner.chunksOf(files, chunkSize)).dealt(Planner.chunksPerTask(job.batchBytes(), chunkSize), "plan the chunks");
            if (chunkTasks.isEmpty()) return;
            Spread<BatchResult> copied = chunkTasks.get().runKept("copy chunks", copy,
                    faulted("copy chunks", CopyEngine::copyChunks), counts);
            // A file with a failed chunk fails once, and is not finished: nothing half-written counts as copied.
            Spread<Failure> failed = copied.mapShares(CopyJob::chunkFailures).distinct(Failure::path).kept();
            List<Failure> kept = failed.take(CopyCounts.MAX_FAILURES_KEPT);
            kept.forEach(counts::addFailure);
            if (kept.size() == CopyCounts.MAX_FAILURES_KEPT) counts.addFailuresNotKept(failed.count() - kept.size());
            Spread<LargeFile> complete = toCopy.marked(f -> f.file().display(), failed.mapShares(CopyJob::paths)).mapShares(CopyJob::unmarked);
            complete.dealt(job.batchFiles(), "plan the large files to finish").ifPresent(tasks -> counts.merge(
                    tasks.run("finish large files", copy, faulted("finish large files", CopyEngine::finishLargeFiles))));
        }

        /** Gives directories their metadata, deepest wave first, each task's share deepest first; a sync says which this run made. */
        private void finishDirectories(Spread<Entry> directories, Spread<PathKey> created, long[] byDepth) {
            DirectoriesInFlight finish = new DirectoriesInFlight(job.threadsPerTask(), true);
            List<DepthWave> waves = new ArrayList<>(DepthWave.of(byDepth, job.batchFiles(), runner.parallelism()));
            Collections.reverse(waves);
            for (DepthWave wave : waves) {
                String phase = "finish directories" + wave;
                if (!sync) {
                    counts.merge(wave.tasksOf(directories, phase).run(phase, copy,
                            faulted(phase, (engine, dirs) -> finish.run(engine, DepthWave.sorted(dirs, true)))));
                    continue;
                }
                Spread<Spread.Marked<Entry>> marked = wave.of(directories).marked(e -> new PathKey(e.path()), created);
                counts.merge(wave.spread(marked).run(phase, copy, faulted(phase, CopyJob::finishMarked)));
            }
        }

        /**
         * sync --delete: walks DST where SRC was walked, meets both listings by directory path and applies
         * {@link DeletionPlanner#extraneous} to each directory; what lies in or at a mount point inside DST is
         * spared (each such mount point noticed once); the rest is deleted deepest first, in waves by depth.
         */
        private Spread<DirectoryBlock> deleteExtraneous() {
            Spread<DirectoryBlock> sourceBlocks = source.wholeListing(); // what SRC lacks is known only then
            deleteWhatSourceLacks(sourceBlocks);
            return sourceBlocks;
        }

        private void deleteWhatSourceLacks(Spread<DirectoryBlock> sourceBlocks) {
            ListingSummary listed = source.summary();
            if (!listed.complete()) {
                String reason = "deletion refused: the walk of the source reported " + listed.errorCount()
                        + " error(s), so what it lacks is unknown; nothing was deleted";
                log.accept(reason);
                counts.addFailure(new Failure(WHOLE_TREE, "delete", "", reason));
                return;
            }
            Filter kept = job.listing().destinationFilter(); // what it leaves out of DST stays
            Listed.Walked destination = source.destination(copy.destinationRoot(), false, kept);
            // Unlisted parts of DST cannot be compared: report them; what was listed is still safe to judge.
            destination.summary().addErrorsTo(counts, f -> new Failure(f.path(), f.op(), f.errno(), "destination, not deleted: " + f.message()));
            Spread<Extraneous> extraneous = extraneous(destination.blocks(), sourceBlocks, copy.destinationRoot()).kept();
            for (String m : extraneous.filter(x -> x.mountPoint() != null).mapShares(CopyJob::mountPoints).distinct(m -> m).collect())
                counts.addNotice(DeletionScope.spared(m));
            Spread<Entry> toDelete = extraneous.filter(x -> x.mountPoint() == null).mapShares(CopyJob::entries);
            long[] byDepth = toDelete.countBy(CopyJob::depth, "count by depth what to delete");
            log.accept("deleting " + Counted.of(Arrays.stream(byDepth).sum(), "destination entry") + " the source does not have");
            List<DepthWave> waves = new ArrayList<>(DepthWave.of(byDepth, job.batchFiles(), runner.parallelism()));
            Collections.reverse(waves);
            for (DepthWave wave : waves) {
                String phase = "delete" + wave;
                counts.merge(wave.tasksOf(toDelete, phase).run(phase, copy,
                        faulted(phase, (engine, entries) -> engine.deleteEntries(DepthWave.sorted(entries, true), kept))));
            }
        }
    }

    /** The work, then the fault hook; captures no job (it travels to the executors). */
    private <T> TaskWork<T> faulted(String phase, TaskWork<T> work) {
        TaskFault hook = fault;
        return (engine, task) -> {
            BatchResult r = work.run(engine, task);
            hook.afterWork(phase);
            return r;
        };
    }

    private static <T> Spread<T> plus(Spread<T> all, Spread<T> more) {
        return all == null ? more : all.union(more);
    }

    record InodeKey(long dev, long ino) implements Serializable {}

    /** An entry DST has and SRC lacks, with the mount point inside DST it lies in or at (then it is spared), or null. */
    public record Extraneous(Entry entry, String mountPoint) implements Serializable {}

    /** What DST has and SRC lacks: {@link DeletionPlanner#extraneous} applied to the two listings met by directory path. */
    public static Spread<Extraneous> extraneous(Spread<DirectoryBlock> destination, Spread<DirectoryBlock> source, byte[] destinationRoot) {
        List<String> mountPoints = DeletionScope.mountPointsBelow(destinationRoot);
        return destination.meet(b -> new PathKey(b.path()), source, b -> new PathKey(b.path()),
                (there, here) -> extraneous(there, here, mountPoints));
    }

    private static Iterable<Extraneous> extraneous(List<DirectoryBlock> there, List<DirectoryBlock> here, List<String> mountPoints) {
        List<Extraneous> out = new ArrayList<>();
        DirectoryBlock sourceBlock = here.isEmpty() ? null : here.get(0);
        for (DirectoryBlock d : there)
            DeletionPlanner.extraneous(d, sourceBlock, e -> out.add(new Extraneous(e, DeletionScope.mountPointOf(e, mountPoints))));
        return out;
    }

    private static int depth(Entry e) { return PathBytes.depth(e.path()); }

    private static Iterable<Entry> directoriesOf(List<DirectoryBlock> blocks) {
        List<Entry> out = new ArrayList<>();
        for (DirectoryBlock b : blocks) if (b.directory() != null) out.add(b.directory());
        return out;
    }

    private static Iterable<PathKey> createdPaths(List<BatchResult> results) {
        List<PathKey> out = new ArrayList<>();
        for (BatchResult r : results) for (byte[] p : r.directoriesCreated()) out.add(new PathKey(p));
        return out;
    }

    private static Iterable<FileBatch> batches(List<PartitionPlan> plans) {
        return plans.stream().flatMap(p -> p.batches().stream()).toList();
    }

    private static Iterable<Entry> linked(List<PartitionPlan> plans) {
        return plans.stream().flatMap(p -> p.linked().stream()).toList();
    }

    private static Iterable<Entry> largeFiles(List<PartitionPlan> plans) {
        return plans.stream().flatMap(p -> p.largeFiles().stream()).toList();
    }

    private static Iterable<LargeFile> needChunks(List<BatchResult> results) {
        List<LargeFile> out = new ArrayList<>();
        for (BatchResult r : results) out.addAll(r.needChunks());
        return out;
    }

    private static Iterable<Failure> chunkFailures(List<BatchResult> results) {
        List<Failure> out = new ArrayList<>();
        for (BatchResult r : results) out.addAll(r.chunkFailures());
        return out;
    }

    private static Iterable<String> paths(List<Failure> failures) {
        return failures.stream().map(Failure::path).toList();
    }

    private static <T> Iterable<T> unmarked(List<Spread.Marked<T>> items) {
        return items.stream().filter(m -> !m.marked()).map(Spread.Marked::item).toList();
    }

    private static Iterable<String> mountPoints(List<Extraneous> entries) {
        return entries.stream().map(Extraneous::mountPoint).toList();
    }

    /** The entries to delete: not spared. */
    public static Iterable<Entry> entries(List<Extraneous> entries) {
        return entries.stream().map(Extraneous::entry).toList();
    }

    /** A sync's finish of one task's directories, deepest first, each marked when this run made it. */
    private static BatchResult finishMarked(CopyEngine engine, List<Spread.Marked<Entry>> dirs) {
        List<Spread.Marked<Entry>> ordered = new ArrayList<>(dirs);
        ordered.sort((a, b) -> DepthWave.DEEPEST_FIRST.compare(a.item(), b.item()));
        boolean[] made = new boolean[ordered.size()];
        List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < made.length; i++) {
            entries.add(ordered.get(i).item());
            made[i] = ordered.get(i).marked();
        }
        return engine.finishDirectories(new DirectoryBatch(entries, made));
    }
}

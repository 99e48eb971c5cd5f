package io.sparkdcp.job;

import io.sparkdcp.copy.compare.CompareOutcome;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.copy.compare.Difference;
import io.sparkdcp.copy.options.RootFile;
import io.sparkdcp.copy.EntryComparer;
import io.sparkdcp.copy.compare.EntryPair;
import io.sparkdcp.copy.compare.PairChunk;
import io.sparkdcp.copy.RootCheck;
import io.sparkdcp.itemlog.TaskItemLog;
import io.sparkdcp.job.exec.JobOptions;
import io.sparkdcp.job.exec.Listed;
import io.sparkdcp.job.exec.PhaseRunner;
import io.sparkdcp.job.exec.SourceListing;
import io.sparkdcp.job.exec.Spread;
import io.sparkdcp.job.listing.ListingSummary;
import io.sparkdcp.plan.Planner;
import io.sparkdcp.posix.DirectoryIdentity;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.report.CompareReport;
import io.sparkdcp.report.Counted;
import io.sparkdcp.walk.DirectoryBlock;
import io.sparkdcp.walk.Entry;
import io.sparkdcp.walk.Filter;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * {@code compare}, written once over {@link Spread}s that live wherever the runner's {@link Listed}
 * keeps the listings (driver lists, or RDDs on the executors): walk both trees the way a copy walks
 * its source, match them directory by directory, judge what only the listings can tell (entries one
 * side lacks, hard-link groups), and hand the pairs to tasks in batches, which compare each pair
 * ({@link EntryComparer}). Nothing is written to either tree, and no lock is taken: a compare may run
 * beside a copy, whose half-done entries it then reports as differences.
 */
public final class CompareJob {
    static final Comparator<Difference> BY_PATH = Comparator.<Difference, byte[]>comparing(Difference::path, PathBytes::compare)
            .thenComparing(Difference::kind);

    private final JobOptions options;
    private final long windowNanos;
    private final PhaseRunner runner;
    private final Consumer<String> log;

    /**
     * @param options     the two roots (CopyOptions' source and destination), the xattr policy, project IDs on or
     *                    off, modes().compareContents() for --contents, batch sizes, walk threads and mode, and
     *                    threadsPerTask(): threads comparing in each task
     * @param windowNanos mtimes less than this apart count as equal (0: to the nanosecond)
     */
    public CompareJob(JobOptions options, long windowNanos, PhaseRunner runner, Consumer<String> log) {
        if (options.listing().listing() != null || options.listing().saveListing() != null)
            throw new IllegalArgumentException("compare walks both trees: no saved listing is read or written");
        if (windowNanos < 0) throw new IllegalArgumentException("the time window must not be negative");
        this.options = options;
        this.windowNanos = windowNanos;
        this.runner = runner;
        this.log = log;
    }

    /** The whole compare, both roots pinned for every task; nothing written, no lock taken. */
    public CompareReport run() {
        long start = System.nanoTime();
        JobOptions job = options.withCopy(pinned(options.copy()));
        try (Listed listed = runner.list(job, log, block -> {}, Long.MAX_VALUE)) {
            return new Recipe(job, listed).run(start);
        }
    }

    /**
     * One run's phases over the listings, wherever the runner keeps them: list both trees → match them
     * directory by directory → hard-link groups met by inode → pairs compared in batch tasks → with
     * --contents, large files in chunk tasks → report. The driver receives differences, failures and
     * counts, never a listing; it writes the item log.
     */
    private final class Recipe {
        private final JobOptions job;
        private final CopyOptions copy;
        private final Listed source;

        Recipe(JobOptions job, Listed source) {
            this.job = job;
            this.copy = job.copy();
            this.source = source;
        }

        CompareReport run(long start) {
            Spread<DirectoryBlock> sourceBlocks = source.wholeListing();
            ListingSummary sourceListed = source.summary();
            Listed.Walked destination = source.destination(copy.destinationRoot(), false, Filter.NONE);
            ListingSummary destinationListed = destination.summary();
            log.accept(String.format(Locale.ROOT, "listed %s in SRC and %,d in DST%s", Counted.of(sourceListed.entries(), "entry"),
                    destinationListed.entries(), source.listedBy().equals(SourceListing.EXECUTORS) ? " " + runner.where() : ""));
            List<Failure> failures = new ArrayList<>();
            for (Failure f : sourceListed.errors()) failures.add(side(f, "SRC"));
            for (Failure f : destinationListed.errors()) failures.add(side(f, "DST"));

            Set<String> sourceUnreadable = paths(sourceListed.errors());
            Set<String> destinationUnreadable = paths(destinationListed.errors());
            Spread<CompareMatch.Placed> here = sourceBlocks.mapShares(CompareMatch::placed);
            Spread<CompareMatch.Placed> there = destination.blocks().mapShares(CompareMatch::placed);
            Spread<CompareMatch.Matched> matched = here.meet(CompareMatch.Placed::directory, there, CompareMatch.Placed::directory,
                    (inHere, inThere) -> List.of(CompareMatch.of(inHere, inThere, sourceUnreadable, destinationUnreadable))).kept();
            List<Difference> differences = new ArrayList<>(matched.mapShares(CompareMatch::differencesOf).collect());
            long onlyBelow = matched.mapShares(CompareMatch::onlyBelowOf).collect().stream().mapToLong(Long::longValue).sum();
            // In path order within each share: a share computed again cuts the same batches and chunks.
            Spread<EntryPair> pairs = matched.mapShares(CompareMatch::pairsOf);
            differences.addAll(hardLinks(pairs, true));
            differences.addAll(hardLinks(pairs, false));

            long compared = 0;
            long bytes = 0;
            Set<String> walkFailed = paths(failures);
            for (CompareOutcome o : comparePairs(pairs)) {
                differences.addAll(o.differences());
                addFailures(o, walkFailed, failures);
                compared += o.compared();
                bytes += o.bytesCompared();
            }
            if (copy.modes().compareContents()) bytes += addChunkOutcomes(compareLargeFiles(pairs), differences, failures);
            differences.sort(BY_PATH);
            log(copy, differences, failures);
            return new CompareReport(copy, windowNanos, source.listedBy(), new CompareReport.Numbers(sourceListed.entries(),
                    destinationListed.entries(), compared, onlyBelow, bytes), differences, failures, System.nanoTime() - start);
        }

        /** The pairs in batches, each batch a task. */
        private List<CompareOutcome> comparePairs(Spread<EntryPair> pairs) {
            // Locals: the functions travel to the executors without this recipe.
            JobOptions cut = job;
            CopyOptions copy = this.copy;
            long window = windowNanos;
            int threads = job.threadsPerTask();
            return pairs.mapShares(share -> batches(share, cut)).dealt(1, "plan the compare tasks")
                    .map(tasks -> tasks.mapInTasks("compare", batches -> compareEach(copy, window, threads, batches)).collect())
                    .orElse(List.of());
        }

        /**
         * With --contents, the bytes of files larger than the chunk size, in chunks that different tasks
         * compare (as the copy splits them); the outcomes of each chunk task.
         */
        private List<CompareOutcome> compareLargeFiles(Spread<EntryPair> pairs) {
            CopyOptions copy = this.copy;
            return pairs.mapShares(share -> chunksOf(share, copy))
                    .dealt(Planner.chunksPerTask(job.batchBytes(), copy.chunkSize()), "plan the chunks to compare")
                    .map(tasks -> tasks.mapInTasks("compare large files", part -> List.of(EntryComparer.compareChunks(copy, part))).collect())
                    .orElse(List.of());
        }

        /** Names of one inode, from one side, met by (dev, ino) and judged together. */
        private List<Difference> hardLinks(Spread<EntryPair> pairs, boolean fromSource) {
            return pairs.filter(p -> linkedInode(p, fromSource) != null)
                    .grouped(p -> linkedInode(p, fromSource), runner.parallelism())
                    .mapShares(groups -> {
                        List<Difference> out = new ArrayList<>();
                        for (List<EntryPair> group : groups) splits(CompareMatch.inPathOrder(group), fromSource, out);
                        return out;
                    }).collect();
        }
    }

    private static List<CompareOutcome> compareEach(CopyOptions copy, long window, int threads, List<List<EntryPair>> batches) {
        List<CompareOutcome> out = new ArrayList<>();
        for (List<EntryPair> batch : batches) out.add(EntryComparer.compare(copy, window, threads, batch));
        return out;
    }

    private static List<PairChunk> chunksOf(List<EntryPair> pairs, CopyOptions copy) {
        List<PairChunk> chunks = new ArrayList<>();
        for (EntryPair p : pairs) chunks.addAll(chunksOf(p, copy));
        return chunks;
    }

    /** A pair's chunks when its bytes are compared by several tasks: files of equal size larger than the chunk size. */
    private static List<PairChunk> chunksOf(EntryPair p, CopyOptions copy) {
        long size = p.source().stat().size();
        if (p.source().type() != FileType.FILE || p.destination().type() != FileType.FILE || size != p.destination().stat().size()
                || size <= copy.chunkSize()) return List.of();
        List<PairChunk> chunks = new ArrayList<>();
        for (long off = 0; off < size; off += copy.chunkSize()) chunks.add(new PairChunk(p, off, Math.min(copy.chunkSize(), size - off)));
        return chunks;
    }

    /** The chunks' outcomes: one DATA difference and one failure per file however many chunks tell it. Returns the bytes read. */
    private static long addChunkOutcomes(List<CompareOutcome> outcomes, List<Difference> differences, List<Failure> failures) {
        Set<ByteBuffer> differ = new HashSet<>();
        Set<String> failed = new HashSet<>();
        long bytes = 0;
        for (CompareOutcome o : outcomes) {
            for (Difference d : o.differences()) if (differ.add(ByteBuffer.wrap(d.path()))) differences.add(d);
            for (Failure f : o.failures()) if (failed.add(f.path())) failures.add(f);
            bytes += o.bytesCompared();
        }
        return bytes;
    }

    /** A directory a walk could not open fails its pair again: reported once, by the walk. */
    private static void addFailures(CompareOutcome o, Set<String> walkFailed, List<Failure> failures) {
        for (Failure f : o.failures()) if (!walkFailed.contains(f.path())) failures.add(f);
    }

    /** Every difference and failure in the item log, when there is one: one line each. */
    private static void log(CopyOptions copy, List<Difference> differences, List<Failure> failures) {
        try (TaskItemLog lines = TaskItemLog.forDriver(copy)) {
            differences.forEach(lines::difference);
            failures.forEach(lines.log()::jobFailure);
            lines.commit();
        }
    }

    /** Both roots' identities, so that every task opens the same two directories (read-only, no lock). */
    private static CopyOptions pinned(CopyOptions copy) {
        DirectoryIdentity s;
        DirectoryIdentity d;
        try (Fd fd = RootCheck.open(copy.sourceRoot(), copy.sourceId(), "source")) {
            s = Posix.identity(fd);
        }
        try (Fd fd = RootCheck.open(copy.destinationRoot(), copy.destinationId(), "destination")) {
            d = Posix.identity(fd);
        }
        return copy.withRootIds(s, d);
    }

    private static Failure side(Failure f, String tree) {
        return new Failure(f.path(), f.op(), f.errno(), "in " + tree + ": " + f.message());
    }

    private static Set<String> paths(List<Failure> failures) {
        return failures.stream().map(Failure::path).collect(Collectors.toCollection(HashSet::new));
    }

    /**
     * Names of one inode (in path order) whose other side's inodes split them: one difference, at the
     * group's first name. The pairs of several inodes may be given: each is judged apart. Only names
     * both trees have count (a missing name is its own difference).
     */
    static void splits(List<EntryPair> pairs, boolean fromSource, List<Difference> out) {
        Map<List<Long>, List<EntryPair>> groups = new LinkedHashMap<>();
        for (EntryPair p : pairs) {
            List<Long> inode = linkedInode(p, fromSource);
            if (inode != null) groups.computeIfAbsent(inode, k -> new ArrayList<>()).add(p);
        }
        for (List<EntryPair> group : groups.values()) {
            if (group.size() < 2) continue;
            Map<List<Long>, List<EntryPair>> asThere = new LinkedHashMap<>();
            for (EntryPair p : group) {
                Entry there = fromSource ? p.destination() : p.source();
                asThere.computeIfAbsent(List.of(there.stat().dev(), there.stat().ino()), k -> new ArrayList<>()).add(p);
            }
            if (asThere.size() < 2) continue;
            String linked = names(group);
            String split = asThere.values().stream().map(CompareJob::names).collect(Collectors.joining(" "));
            out.add(new Difference(group.get(0).path(), Difference.Kind.HARD_LINKS, fromSource ? linked : split, fromSource ? split : linked));
        }
    }

    /** The (dev, ino) of one side of a pair whose names are checked together, or null: directories, and single links. */
    private static List<Long> linkedInode(EntryPair p, boolean fromSource) {
        Entry here = fromSource ? p.source() : p.destination();
        Entry there = fromSource ? p.destination() : p.source();
        if (here.type() == FileType.DIRECTORY || there.type() == FileType.DIRECTORY || here.stat().nlink() < 2) return null;
        return List.of(here.stat().dev(), here.stat().ino());
    }

    private static String names(List<EntryPair> pairs) {
        return pairs.stream().map(p -> PathBytes.display(p.path())).collect(Collectors.joining(", ", "[", "]"));
    }

    /** Pairs in path order, cut at --batch-files entries or, when bytes are read, --batch-bytes bytes (large files' chunks aside). */
    private static List<List<EntryPair>> batches(List<EntryPair> pairs, JobOptions options) {
        boolean readsBytes = options.copy().modes().compareContents();
        List<List<EntryPair>> out = new ArrayList<>();
        List<EntryPair> current = new ArrayList<>();
        long bytes = 0;
        for (EntryPair p : pairs) {
            long size = readsBytes && p.source().type() == FileType.FILE && p.source().stat().size() <= options.copy().chunkSize()
                    ? p.source().stat().size() : 0;
            if (!current.isEmpty() && (current.size() >= options.batchFiles() || bytes + size > options.batchBytes())) {
                out.add(current);
                current = new ArrayList<>();
                bytes = 0;
            }
            current.add(p);
            bytes += size;
        }
        if (!current.isEmpty()) out.add(current);
        return out;
    }
}

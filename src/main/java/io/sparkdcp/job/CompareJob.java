package io.sparkdcp.job;

import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.copy.options.RootFile;
import io.sparkdcp.copy.compare.CompareOutcome;
import io.sparkdcp.copy.compare.Difference;
import io.sparkdcp.copy.EntryComparer;
import io.sparkdcp.copy.compare.EntryPair;
import io.sparkdcp.copy.compare.PairChunk;
import io.sparkdcp.copy.RootCheck;
import io.sparkdcp.itemlog.TaskItemLog;
import io.sparkdcp.plan.Planner;
import io.sparkdcp.posix.DirectoryIdentity;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.report.CompareReport;
import io.sparkdcp.report.Counted;
import io.sparkdcp.walk.Entry;
import io.sparkdcp.walk.Listing;
import io.sparkdcp.walk.TreeWalker;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * The driver's side of {@code compare}: walk both trees the way a copy walks its source (on the
 * driver, or on the executors), match the entries by path, judge what only the listings can tell
 * (entries one side lacks, hard-link groups), and hand the pairs to tasks in batches, which compare
 * each pair ({@link EntryComparer}). Nothing is written to either tree, and no lock is taken: a
 * compare may run beside a copy, whose half-done entries it then reports as differences.
 */
public final class CompareJob {
    public static final Comparator<Difference> BY_PATH = Comparator.<Difference, byte[]>comparing(Difference::path, PathBytes::compare)
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

    public CompareReport run() {
        long start = System.nanoTime();
        CopyOptions copy = pinned(options.copy());
        String listedBy = SourceListing.listedBy(options, runner);
        RootFile file = copy.rootFile();
        Listing source = file != null ? TreeWalker.walkOne(copy.sourceRoot(), file.sourceName(), file.destinationName(), true)
                : walk(copy.sourceRoot(), listedBy);
        Listing destination = file != null ? TreeWalker.walkOne(copy.destinationRoot(), file.destinationName(), file.destinationName(), false)
                : walk(copy.destinationRoot(), listedBy);
        log.accept(String.format(Locale.ROOT, "listed %s in SRC and %,d in DST", Counted.of(source.entryCount(), "entry"), destination.entryCount()));

        List<Failure> failures = new ArrayList<>();
        for (Failure f : source.errors()) failures.add(side(f, "SRC"));
        for (Failure f : destination.errors()) failures.add(side(f, "DST"));
        Matched matched = match(source.entries(), destination.entries(), unreadable(source), unreadable(destination));
        List<Difference> differences = new ArrayList<>(matched.differences());
        differences.addAll(hardLinks(matched.pairs()));

        long compared = 0;
        long bytes = 0;
        long window = windowNanos;
        int threads = options.threadsPerTask();
        List<List<EntryPair>> tasks = batches(matched.pairs(), options);
        Set<String> walkFailed = failures.stream().map(Failure::path).collect(Collectors.toSet());
        for (CompareOutcome o : runner.map("compare", tasks, pairs -> EntryComparer.compare(copy, window, threads, pairs))) {
            differences.addAll(o.differences());
            addFailures(o, walkFailed, failures);
            compared += o.compared();
            bytes += o.bytesCompared();
        }
        if (copy.modes().compareContents()) bytes += compareLargeFiles(copy, matched.pairs(), differences, failures);
        differences.sort(BY_PATH);
        log(copy, differences, failures);
        return new CompareReport(PathBytes.display(copy.sourceShown()), PathBytes.display(copy.destinationShown()),
                copy.xattrs().word(), copy.projectIds(), copy.flags(), copy.modes().compareContents(), windowNanos, listedBy,
                source.entryCount(), destination.entryCount(), compared, matched.onlyBelow(), bytes, differences, failures,
                System.nanoTime() - start);
    }

    /**
     * With --contents, the bytes of files larger than the chunk size, in chunks that different tasks
     * compare (as the copy splits them); one DATA difference per file however many chunks differ.
     * Returns the bytes read on each side.
     */
    private long compareLargeFiles(CopyOptions copy, List<EntryPair> pairs, List<Difference> differences, List<Failure> failures) {
        List<PairChunk> chunks = new ArrayList<>();
        for (EntryPair p : pairs) chunks.addAll(chunksOf(p, copy));
        if (chunks.isEmpty()) return 0;
        int perTask = (int) Planner.chunksPerTask(options.batchBytes(), copy.chunkSize());
        return addChunkOutcomes(runner.map("compare large files", Planner.partition(chunks, perTask),
                part -> EntryComparer.compareChunks(copy, part)), differences, failures);
    }

    /** A pair's chunks when its bytes are compared by several tasks: files of equal size larger than the chunk size. */
    public static List<PairChunk> chunksOf(EntryPair p, CopyOptions copy) {
        long size = p.source().stat().size();
        if (p.source().type() != FileType.FILE || p.destination().type() != FileType.FILE || size != p.destination().stat().size()
                || size <= copy.chunkSize()) return List.of();
        List<PairChunk> chunks = new ArrayList<>();
        for (long off = 0; off < size; off += copy.chunkSize()) chunks.add(new PairChunk(p, off, Math.min(copy.chunkSize(), size - off)));
        return chunks;
    }

    /** The chunks' outcomes: one DATA difference and one failure per file however many chunks tell it. Returns the bytes read. */
    public static long addChunkOutcomes(List<CompareOutcome> outcomes, List<Difference> differences, List<Failure> failures) {
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
    public static void addFailures(CompareOutcome o, Set<String> walkFailed, List<Failure> failures) {
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
    public static CopyOptions pinned(CopyOptions copy) {
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

    private Listing walk(byte[] root, String listedBy) {
        return listedBy.equals(SourceListing.EXECUTORS)
                ? new DistributedWalk(runner, options.walkThreads(), log).walk(root, false)
                : new TreeWalker(options.walkThreads(), false).walk(root);
    }

    public static Failure side(Failure f, String tree) {
        return new Failure(f.path(), f.op(), f.errno(), "in " + tree + ": " + f.message());
    }

    private static Set<String> unreadable(Listing listing) {
        return listing.errors().stream().map(Failure::path).collect(Collectors.toSet());
    }

    /**
     * @param pairs       entries both trees have, of the same type or not
     * @param differences entries one tree lacks: the topmost only, for a directory one side lacks
     * @param onlyBelow   entries left unreported below such directories
     */
    public record Matched(List<EntryPair> pairs, List<Difference> differences, long onlyBelow) {}

    /**
     * Matches the two listings by path. An entry the other tree lacks is a difference unless the other
     * tree could not list it (that walk error is reported already), and only the topmost of a subtree
     * one side lacks (or has where the other has no directory) is listed.
     */
    public static Matched match(List<Entry> source, List<Entry> destination, Set<String> sourceUnreadable, Set<String> destinationUnreadable) {
        Map<ByteBuffer, Entry> there = new HashMap<>();
        for (Entry d : destination) there.put(ByteBuffer.wrap(d.path()), d);
        List<EntryPair> pairs = new ArrayList<>();
        List<Difference> differences = new ArrayList<>();
        Set<ByteBuffer> sourceOnlyDirs = new HashSet<>();
        Set<ByteBuffer> destinationOnlyDirs = new HashSet<>();
        long below = 0;
        for (Entry s : source) {
            Entry d = there.remove(ByteBuffer.wrap(s.path()));
            if (d != null) {
                pairs.add(new EntryPair(s, d));
                if (s.type() != d.type()) {
                    if (s.type() == FileType.DIRECTORY) sourceOnlyDirs.add(ByteBuffer.wrap(s.path()));
                    if (d.type() == FileType.DIRECTORY) destinationOnlyDirs.add(ByteBuffer.wrap(d.path()));
                }
            } else if (oneSided(s, sourceOnlyDirs, destinationUnreadable)) {
                below++;
            } else if (!underUnreadable(s.path(), destinationUnreadable)) {
                differences.add(new Difference(s.path(), Difference.Kind.ONLY_IN_SOURCE, describe(s), ""));
            }
        }
        for (Entry d : destination) {
            if (!there.containsKey(ByteBuffer.wrap(d.path()))) continue; // matched above
            if (oneSided(d, destinationOnlyDirs, sourceUnreadable)) below++;
            else if (!underUnreadable(d.path(), sourceUnreadable))
                differences.add(new Difference(d.path(), Difference.Kind.ONLY_IN_DESTINATION, "", describe(d)));
        }
        return new Matched(pairs, differences, below);
    }

    /** Whether e lies below a directory only its tree has (remembering e if it is one, for its own children). */
    private static boolean oneSided(Entry e, Set<ByteBuffer> oneSidedDirs, Set<String> otherUnreadable) {
        boolean below = oneSidedDirs.contains(ByteBuffer.wrap(e.parent()));
        if (e.type() == FileType.DIRECTORY && !underUnreadable(e.path(), otherUnreadable)) oneSidedDirs.add(ByteBuffer.wrap(e.path()));
        return below && !e.isRoot();
    }

    /** The other walk could not list this path or a directory above it: its absence there says nothing. */
    private static boolean underUnreadable(byte[] path, Set<String> unreadable) {
        if (unreadable.isEmpty()) return false;
        for (byte[] p = path; ; p = PathBytes.parent(p)) {
            if (unreadable.contains(PathBytes.display(p))) return true;
            if (p.length == 0) return false;
        }
    }

    private static String describe(Entry e) {
        return e.type() == FileType.FILE ? "file, " + e.stat().size() + " bytes" : e.type().name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }

    /**
     * The names of each inode must be the same on both sides: names that share an inode in one tree
     * and not in the other are one difference, at the group's first name. Only names both trees have
     * count (a missing name is its own difference).
     */
    static List<Difference> hardLinks(List<EntryPair> pairs) {
        List<Difference> out = new ArrayList<>();
        splits(pairs, true, out);
        splits(pairs, false, out);
        return out;
    }

    /**
     * Names of one inode (in path order) whose other side's inodes split them: one difference, at the
     * group's first name. The pairs of several inodes may be given: each is judged apart.
     */
    public static void splits(List<EntryPair> pairs, boolean fromSource, List<Difference> out) {
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
    public static List<Long> linkedInode(EntryPair p, boolean fromSource) {
        Entry here = fromSource ? p.source() : p.destination();
        Entry there = fromSource ? p.destination() : p.source();
        if (here.type() == FileType.DIRECTORY || there.type() == FileType.DIRECTORY || here.stat().nlink() < 2) return null;
        return List.of(here.stat().dev(), here.stat().ino());
    }

    private static String names(List<EntryPair> pairs) {
        return pairs.stream().map(p -> PathBytes.display(p.path())).collect(Collectors.joining(", ", "[", "]"));
    }

    /** Pairs in path order, cut at --batch-files entries or, when bytes are read, --batch-bytes bytes (large files' chunks aside). */
    public static List<List<EntryPair>> batches(List<EntryPair> pairs, JobOptions options) {
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

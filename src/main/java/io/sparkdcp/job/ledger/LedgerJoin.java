package io.sparkdcp.job.ledger;

import io.sparkdcp.copy.EntryComparer;
import io.sparkdcp.copy.TimeGranularity;
import io.sparkdcp.copy.compare.CompareOutcome;
import io.sparkdcp.copy.compare.EntryPair;
import io.sparkdcp.copy.options.CopyModes;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.job.exec.PathKey;
import io.sparkdcp.job.exec.Spread;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.PosixException;
import io.sparkdcp.posix.Stat;
import io.sparkdcp.walk.DirectoryBlock;
import io.sparkdcp.walk.Entry;

import java.io.Serializable;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The state ledger met with the listing, on the tasks: each listed directory's entries whose SRC stat (the
 * walk's) and DST stat (one statx relative to DST's directory, no open of the entry) both equal the ledger's
 * record are proven unchanged and left out of the copy; the rest go on as today. After a successful run the
 * same tasks turn what they hold into the next generation's records: the proven ones as they are, the others
 * with the walk's SRC stat and DST's stat after the run.
 */
public final class LedgerJoin {
    private static final byte[] SELF = PathBytes.EMPTY;

    private LedgerJoin() {}

    /** One directory's listed blocks and the ledger's record of it (null: none). */
    record Paired(List<DirectoryBlock> blocks, LedgerBlock ledger) implements Serializable {}

    /**
     * One directory after the ledger.
     *
     * @param left   what the copy still has to do: its blocks without the proven entries (a directory proven
     *               with all its files is left out too; with any file left, it is finished as today)
     * @param suspect files whose size and mtime are as recorded on both sides while their ctime or inode moved: their
     *                data may have changed with its mtime put back, so the copy compares their contents
     * @param proven the records the ledger proved, carried into the next generation as they are
     * @param existing for a copy: what DST held at the names of {@code left} before the copy ran, each name with its
     *                 inode; a copy keeps an entry after comparing its stats alone, so such an entry is compared in
     *                 full before it is recorded (empty for a sync, which compares what it keeps in full itself)
     * @param carried  under other filters than the ledger's, the records of entries this run does not list: carried
     *                 into the next generation as they are, for a run that lists them again (a record proves an
     *                 entry only while both sides are as recorded, whoever left them so)
     */
    public record Decided(byte[] path, List<DirectoryBlock> left, List<DirectoryBlock> suspect, LedgerBlock proven,
                          List<Existing> existing, List<LedgerBlock.Entry> carried) implements Serializable {
        long provenCount() { return proven.entries().size(); }

        /** Nothing decided by the ledger: every entry left to the copy. */
        static Decided undecided(byte[] path, List<DirectoryBlock> blocks) {
            return new Decided(path, blocks, List.of(), new LedgerBlock(path, List.of()), List.of(), List.of());
        }
    }

    /** A name DST held before the copy (empty: the directory itself) and its inode then. */
    public record Existing(byte[] name, long ino) implements Serializable {}

    /**
     * How a run looks its listing up in the ledger.
     *
     * @param linkedProvable whether a file of several links may be proven: not when the ledger was made with other
     *                       filters, which may have left out a name of its inode that this run lists and must link
     * @param seeExisting    whether DST's names are stat'ed before the copy, for {@link Decided#existing} (a copy)
     * @param carry          whether the records of entries the run does not list are carried on ({@link Decided#carried}):
     *                       under other filters than the ledger's, which may have listed them
     */
    record Lookup(boolean linkedProvable, boolean seeExisting, boolean carry) implements Serializable {}

    /**
     * The listing's blocks paired with the ledger's by directory path: a co-group, where the listing lives; with
     * {@code carry}, a directory the run does not list keeps its record too.
     */
    static Spread<Paired> pair(Spread<DirectoryBlock> listing, Spread<LedgerBlock> ledger, boolean carry) {
        return listing.meet(b -> new PathKey(b.path()), ledger, l -> new PathKey(l.path()), (blocks, records) ->
                blocks.isEmpty() && (!carry || records.isEmpty()) ? List.of()
                        : List.of(new Paired(blocks, records.isEmpty() ? null : records.get(0))));
    }

    /** A task's share of directories, judged against DST as it is now (DST's root opened once per task). */
    static Iterable<Decided> decide(List<Paired> share, CopyOptions copy, Lookup lookup) {
        List<Decided> out = new ArrayList<>(share.size());
        try (Fd root = openRoot(copy)) {
            for (Paired p : share) out.add(decide(p, root, copy.chunkSize(), lookup));
        }
        return out;
    }

    private static Decided decide(Paired p, Fd root, long chunkSize, Lookup lookup) {
        if (p.blocks().isEmpty()) // not listed by this run: its records carried on as they are
            return new Decided(p.ledger().path(), List.of(), List.of(), new LedgerBlock(p.ledger().path(), List.of()), List.of(), p.ledger().entries());
        byte[] path = p.blocks().get(0).path();
        if (p.ledger() == null && !lookup.seeExisting()) return Decided.undecided(path, p.blocks());
        Map<ByteBuffer, LedgerBlock.Entry> recorded = p.ledger() == null ? Map.of() : p.ledger().byName();
        List<LedgerBlock.Entry> proven = new ArrayList<>();
        List<Entry> left = new ArrayList<>();
        List<Entry> suspect = new ArrayList<>();
        List<Existing> existing = new ArrayList<>();
        java.util.Set<ByteBuffer> listed = new java.util.HashSet<>();
        listed.add(ByteBuffer.wrap(SELF));
        Entry directory = null;
        LedgerBlock.Entry directoryProven = null;
        try (Fd dir = openDirectory(root, path)) {
            for (DirectoryBlock b : p.blocks()) {
                for (Entry f : b.files()) {
                    LedgerBlock.Entry r = recorded.get(ByteBuffer.wrap(f.name()));
                    listed.add(ByteBuffer.wrap(f.name()));
                    Stat there = (r == null && !lookup.seeExisting()) || dir == null ? null : statOrNull(dir, f.name());
                    if (r != null && there != null && provable(f.stat(), lookup) && r.holds(f.stat(), there)) {
                        proven.add(r);
                        continue;
                    }
                    if (r != null && there != null && dataMayHaveMoved(f.stat(), there, r, chunkSize)) suspect.add(f);
                    else left.add(f);
                    if (there != null && lookup.seeExisting()) existing.add(new Existing(f.name(), there.ino()));
                }
                if (b.directory() != null) directory = b.directory();
            }
            LedgerBlock.Entry r = recorded.get(ByteBuffer.wrap(SELF));
            Stat self = directory == null || dir == null || (r == null && !lookup.seeExisting()) ? null : Posix.fstat(dir);
            if (self != null && r != null && r.holds(directory.stat(), self)) directoryProven = r;
            if (self != null && lookup.seeExisting()) existing.add(new Existing(SELF, self.ino()));
        }
        // A directory is left alone only when nothing may be written in it: a file copied there moves its times.
        if (directoryProven != null && left.isEmpty() && suspect.isEmpty()) proven.add(directoryProven);
        else directoryProven = null;
        Entry directoryLeft = directoryProven == null ? directory : null;
        List<DirectoryBlock> leftBlocks = directoryLeft == null && left.isEmpty() ? List.of() : List.of(DirectoryBlock.of(path, directoryLeft, left));
        List<DirectoryBlock> suspectBlocks = suspect.isEmpty() ? List.of() : List.of(DirectoryBlock.of(path, null, suspect));
        List<LedgerBlock.Entry> carried = new ArrayList<>();
        if (lookup.carry() && p.ledger() != null)
            for (LedgerBlock.Entry e : p.ledger().entries()) if (!listed.contains(ByteBuffer.wrap(e.name()))) carried.add(e);
        return new Decided(path, leftBlocks, suspectBlocks, new LedgerBlock(path, proven), existing, carried);
    }

    /** Whether a record may prove this SRC entry: one of several links only under the filters it was made with. */
    private static boolean provable(Stat source, Lookup lookup) {
        return lookup.linkedProvable() || source.nlink() <= 1;
    }

    /**
     * A lone file (not a large one, not hard-linked) whose size and mtime are as recorded on both sides while its
     * ctime or inode moved: a size-and-mtime sync would call it the same, yet its data may have been rewritten and
     * its mtime put back.
     */
    private static boolean dataMayHaveMoved(Stat source, Stat destination, LedgerBlock.Entry r, long chunkSize) {
        if (source.type() != FileType.FILE || destination.type() != FileType.FILE || r.type() != FileType.FILE) return false;
        if (source.nlink() != 1 || source.size() > chunkSize) return false;
        LedgerBlock.Seen s = LedgerBlock.Seen.of(source), d = LedgerBlock.Seen.of(destination);
        return s.size() == r.source().size() && s.mtimeNanos() == r.source().mtimeNanos()
                && d.size() == r.destination().size() && d.mtimeNanos() == r.destination().mtimeNanos();
    }

    /** The blocks the copy still has to do. */
    public static Iterable<DirectoryBlock> left(List<Decided> share) {
        List<DirectoryBlock> out = new ArrayList<>();
        for (Decided d : share) out.addAll(d.left());
        return out;
    }

    /** The files whose contents the copy compares. */
    public static Iterable<DirectoryBlock> suspect(List<Decided> share) {
        List<DirectoryBlock> out = new ArrayList<>();
        for (Decided d : share) out.addAll(d.suspect());
        return out;
    }

    /** What one task wrote of the next generation: its part (null: nothing recorded) and how many records it holds. */
    record Written(StateLedger.Part part, long records) implements Serializable {}

    /**
     * An entry the copy did, as it may be recorded: SRC's walk stat, DST's stat now, and when that stat was taken;
     * {@code statsOnly} when the run may have kept it after comparing its stats alone (a copy's, not made by it).
     */
    private record Candidate(List<LedgerBlock.Entry> into, Entry source, byte[] name, Stat destination, long seenAt, boolean statsOnly) {}

    /** The longest a task waits for DST's newest ctimes to settle (a whole-second file system's two seconds). */
    private static final long MAX_WAIT_NANOS = 2_000_000_000L;

    /**
     * After a successful run, one task's share as the next generation's records, written as one part: the
     * proven ones as they are; each entry the copy did, with the walk's SRC stat (taken before its data and
     * metadata were read, so a change during the copy leaves the record behind) and DST's stat now, but only when
     * the two are found identical: by their stats (type, mode, owner, group, mtime, size, device number), by every
     * kind the run keeps when {@code compareAll} (a notice may stand for entries it does not name), and with both
     * ctimes settled ({@link LedgerBlock#settled}). A copy keeps an entry whose stats match without looking at its
     * xattrs, ACLs, project ID or flags: an entry DST held before the copy (the same inode at its name, {@link
     * Decided#existing}) or of several links is compared in full before it is recorded; what the copy made is
     * SRC's entry as a sync makes it. What a run could not fix is never recorded as done.
     */
    static Iterable<Written> write(List<Decided> share, CopyOptions copy, String generation, long startedNanos, boolean compareAll) {
        List<LedgerBlock.Entry>[] byDirectory = newLists(share.size());
        List<Candidate> candidates = new ArrayList<>();
        long window;
        try (Fd root = openRoot(copy)) {
            window = TimeGranularity.windowNanos(copy.destinationId(), root);
            long waitUntil = 0;
            for (int i = 0; i < share.size(); i++) {
                Decided d = share.get(i);
                byDirectory[i].addAll(d.proven().entries());
                byDirectory[i].addAll(d.carried());
                if (d.left().isEmpty() && d.suspect().isEmpty()) continue;
                Map<ByteBuffer, Long> existed = new java.util.HashMap<>();
                for (Existing e : d.existing()) existed.put(ByteBuffer.wrap(e.name()), e.ino());
                try (Fd dir = openDirectory(root, d.path())) {
                    if (dir == null) continue;
                    // The suspects' contents were compared as sync --contents compares them, in full.
                    for (DirectoryBlock b : d.suspect()) addCandidates(candidates, byDirectory[i], b, dir, Map.of(), copy);
                    for (DirectoryBlock b : d.left()) addCandidates(candidates, byDirectory[i], b, dir, existed, copy);
                }
            }
            for (Candidate c : candidates)
                if (c.destination() != null && !LedgerBlock.settled(ctime(c.destination()), c.seenAt()))
                    waitUntil = Math.max(waitUntil, ctime(c.destination()) + LedgerBlock.granule(ctime(c.destination())));
            if (waitUntil > 0) candidates = restatedAfter(candidates, waitUntil, root);
        }
        Differing differ = differing(compareAll ? candidates : candidates.stream().filter(Candidate::statsOnly).toList(), copy, window);
        for (Candidate c : candidates)
            if (recordable(c, window, startedNanos) && !differ.has(c.source().path()))
                c.into().add(new LedgerBlock.Entry(c.name(), c.source().stat().type(), LedgerBlock.Seen.of(c.source().stat()), LedgerBlock.Seen.of(c.destination())));
        List<LedgerBlock> blocks = new ArrayList<>(share.size());
        long records = 0;
        for (int i = 0; i < share.size(); i++) {
            records += byDirectory[i].size();
            if (!byDirectory[i].isEmpty()) blocks.add(new LedgerBlock(share.get(i).path(), byDirectory[i]));
        }
        return List.of(new Written(StateLedger.writePart(generation, blocks), records));
    }

    /** One block's entries as candidates, DST's stat taken now; {@code existed}: DST's inodes before a copy ran, by name. */
    private static void addCandidates(List<Candidate> candidates, List<LedgerBlock.Entry> into, DirectoryBlock b, Fd dir,
                                      Map<ByteBuffer, Long> existed, CopyOptions copy) {
        boolean copying = !copy.modes().sync();
        long now = LedgerRun.wallNanos();
        for (Entry f : b.files()) {
            Stat there = statOrNull(dir, f.name());
            candidates.add(new Candidate(into, f, f.name(), there, now, copying && (f.stat().nlink() > 1 || keptThere(existed, f.name(), there))));
        }
        if (b.directory() != null) {
            Stat self = Posix.fstat(dir);
            candidates.add(new Candidate(into, b.directory(), SELF, self, LedgerRun.wallNanos(), copying && keptThere(existed, SELF, self)));
        }
    }

    /** Whether DST's entry at this name is the inode it held there before the copy. */
    private static boolean keptThere(Map<ByteBuffer, Long> existed, byte[] name, Stat now) {
        Long before = existed.get(ByteBuffer.wrap(name));
        return before != null && now != null && before == now.ino();
    }

    /** Whether a candidate may be recorded: DST holds SRC's type, the two stats agree, and both ctimes are settled. */
    private static boolean recordable(Candidate c, long window, long startedNanos) {
        Stat d = c.destination();
        if (d == null || d.type() != c.source().stat().type()) return false;
        List<io.sparkdcp.copy.compare.Difference> found = new ArrayList<>();
        EntryComparer.byStat(c.source(), new Entry(c.source().path(), d, null), window, found);
        return found.isEmpty() && LedgerBlock.settled(ctime(c.source().stat()), startedNanos) && LedgerBlock.settled(ctime(d), c.seenAt());
    }

    /**
     * Once the newest ctime among DST's candidates has settled (one wait per task, at most {@link #MAX_WAIT_NANOS}),
     * each candidate stat'ed again: one unchanged since is recorded with the new time; one that changed is not.
     */
    private static List<Candidate> restatedAfter(List<Candidate> candidates, long waitUntil, Fd root) {
        long wait = waitUntil - LedgerRun.wallNanos();
        if (wait > MAX_WAIT_NANOS) return candidates;
        try {
            if (wait > 0) Thread.sleep(wait / 1_000_000 + 1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return candidates;
        }
        List<Candidate> out = new ArrayList<>(candidates.size());
        for (Candidate c : candidates) {
            if (c.destination() == null || LedgerBlock.settled(ctime(c.destination()), c.seenAt())) {
                out.add(c);
                continue;
            }
            byte[] parent = c.name().length == 0 ? c.source().path() : PathBytes.parent(c.source().path());
            long now = LedgerRun.wallNanos();
            try (Fd dir = openDirectory(root, parent)) {
                Stat again = dir == null ? null : c.name().length == 0 ? Posix.fstat(dir) : statOrNull(dir, c.name());
                if (again != null && LedgerBlock.Seen.of(again).equals(LedgerBlock.Seen.of(c.destination())))
                    out.add(new Candidate(c.into(), c.source(), c.name(), again, now, c.statsOnly()));
            }
        }
        return out;
    }

    /** The candidates whose two sides differ in any kind the run keeps (by path), or could not be compared (by the path shown). */
    private record Differing(java.util.Set<ByteBuffer> paths, java.util.Set<String> failed) {
        static final Differing NONE = new Differing(java.util.Set.of(), java.util.Set.of());

        boolean has(byte[] path) {
            return paths.contains(ByteBuffer.wrap(path)) || failed.contains(PathBytes.display(path));
        }
    }

    private static Differing differing(List<Candidate> candidates, CopyOptions copy, long window) {
        if (candidates.isEmpty()) return Differing.NONE;
        List<EntryPair> pairs = new ArrayList<>();
        for (Candidate c : candidates)
            if (c.destination() != null && c.destination().type() == c.source().stat().type())
                pairs.add(new EntryPair(c.source(), new Entry(c.source().path(), c.destination(), null)));
        CompareOutcome outcome = EntryComparer.compare(copy.withModes(copy.modes().with(CopyModes.Mode.CONTENTS, false)), window, 1, pairs);
        java.util.Set<ByteBuffer> paths = new java.util.HashSet<>();
        java.util.Set<String> failed = new java.util.HashSet<>();
        for (io.sparkdcp.copy.compare.Difference d : outcome.differences()) paths.add(ByteBuffer.wrap(d.path()));
        for (io.sparkdcp.posix.Failure f : outcome.failures()) failed.add(f.path());
        return new Differing(paths, failed);
    }

    private static long ctime(Stat s) {
        return s.ctimeSec() * 1_000_000_000L + s.ctimeNsec();
    }

    @SuppressWarnings("unchecked")
    private static List<LedgerBlock.Entry>[] newLists(int n) {
        List<LedgerBlock.Entry>[] out = new List[n];
        for (int i = 0; i < n; i++) out[i] = new ArrayList<>();
        return out;
    }

    /** DST's entry by name in its directory; null when it cannot be stat'ed (then it is neither proven nor recorded). */
    private static Stat statOrNull(Fd dir, byte[] name) {
        try {
            return Posix.statAtIfExists(dir, name);
        } catch (PosixException e) {
            return null;
        }
    }

    private static Fd openRoot(CopyOptions copy) {
        return Posix.openNoSymlinks(copy.destinationRoot(), Linux.O_RDONLY | Linux.O_DIRECTORY);
    }

    /**
     * DST's directory at {@code path}, never through a symlink; null when it is not a directory there now (its
     * entries are then not proven). The root is handed back as a descriptor of its own, so each may be closed.
     */
    private static Fd openDirectory(Fd root, byte[] path) {
        try {
            return path.length == 0 ? Posix.openat(root, new byte[]{'.'}, Linux.O_RDONLY | Linux.O_DIRECTORY, 0)
                    : Posix.openBeneath(root, path, Linux.O_RDONLY | Linux.O_DIRECTORY);
        } catch (PosixException e) {
            return null;
        }
    }
}

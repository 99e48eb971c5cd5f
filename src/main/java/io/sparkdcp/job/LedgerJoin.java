package io.sparkdcp.job;

import io.sparkdcp.copy.options.CopyOptions;
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
final class LedgerJoin {
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
     */
    record Decided(byte[] path, List<DirectoryBlock> left, List<DirectoryBlock> suspect, LedgerBlock proven) implements Serializable {
        long provenCount() { return proven.entries().size(); }
    }

    /** The listing's blocks paired with the ledger's by directory path: a co-group, where the listing lives. */
    static Spread<Paired> pair(Spread<DirectoryBlock> listing, Spread<LedgerBlock> ledger) {
        return listing.meet(b -> new PathKey(b.path()), ledger, l -> new PathKey(l.path()), (blocks, records) ->
                blocks.isEmpty() ? List.of() : List.of(new Paired(blocks, records.isEmpty() ? null : records.get(0))));
    }

    /** A task's share of directories, judged against DST as it is now (DST's root opened once per task). */
    static Iterable<Decided> decide(List<Paired> share, CopyOptions copy) {
        List<Decided> out = new ArrayList<>(share.size());
        try (Fd root = openRoot(copy)) {
            for (Paired p : share) out.add(decide(p, root, copy.chunkSize()));
        }
        return out;
    }

    private static Decided decide(Paired p, Fd root, long chunkSize) {
        byte[] path = p.blocks().get(0).path();
        if (p.ledger() == null) return new Decided(path, p.blocks(), List.of(), new LedgerBlock(path, List.of()));
        Map<ByteBuffer, LedgerBlock.Entry> recorded = p.ledger().byName();
        List<LedgerBlock.Entry> proven = new ArrayList<>();
        List<Entry> left = new ArrayList<>();
        List<Entry> suspect = new ArrayList<>();
        Entry directory = null;
        LedgerBlock.Entry directoryProven = null;
        try (Fd dir = openDirectory(root, path)) {
            for (DirectoryBlock b : p.blocks()) {
                for (Entry f : b.files()) {
                    LedgerBlock.Entry r = recorded.get(ByteBuffer.wrap(f.name()));
                    Stat there = r == null || dir == null ? null : statOrNull(dir, f.name());
                    if (there != null && r.holds(f.stat(), there)) proven.add(r);
                    else if (there != null && dataMayHaveMoved(f.stat(), there, r, chunkSize)) suspect.add(f);
                    else left.add(f);
                }
                if (b.directory() != null) directory = b.directory();
            }
            LedgerBlock.Entry r = recorded.get(ByteBuffer.wrap(SELF));
            if (directory != null && r != null && dir != null && r.holds(directory.stat(), Posix.fstat(dir))) directoryProven = r;
        }
        // A directory is left alone only when nothing may be written in it: a file copied there moves its times.
        if (directoryProven != null && left.isEmpty() && suspect.isEmpty()) proven.add(directoryProven);
        else directoryProven = null;
        Entry directoryLeft = directoryProven == null ? directory : null;
        List<DirectoryBlock> leftBlocks = directoryLeft == null && left.isEmpty() ? List.of() : List.of(DirectoryBlock.of(path, directoryLeft, left));
        List<DirectoryBlock> suspectBlocks = suspect.isEmpty() ? List.of() : List.of(DirectoryBlock.of(path, null, suspect));
        return new Decided(path, leftBlocks, suspectBlocks, new LedgerBlock(path, proven));
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
    static Iterable<DirectoryBlock> left(List<Decided> share) {
        List<DirectoryBlock> out = new ArrayList<>();
        for (Decided d : share) out.addAll(d.left());
        return out;
    }

    /** The files whose contents the copy compares. */
    static Iterable<DirectoryBlock> suspect(List<Decided> share) {
        List<DirectoryBlock> out = new ArrayList<>();
        for (Decided d : share) out.addAll(d.suspect());
        return out;
    }

    /**
     * After a successful run, one task's share as the next generation's records, written as one part: the
     * proven ones as they are; each entry the copy did, with the walk's SRC stat (taken before its data and
     * metadata were read, so a change during the copy leaves the record behind) and DST's stat now.
     * Entries DST does not hold as SRC's type are not recorded: the next run looks at them in full.
     */
    static Iterable<Long> write(List<Decided> share, CopyOptions copy, String generation) {
        List<LedgerBlock> blocks = new ArrayList<>(share.size());
        long records = 0;
        try (Fd root = openRoot(copy)) {
            for (Decided d : share) {
                List<LedgerBlock.Entry> entries = new ArrayList<>(d.proven().entries());
                List<DirectoryBlock> done = new ArrayList<>(d.left());
                done.addAll(d.suspect());
                try (Fd dir = done.isEmpty() ? null : openDirectory(root, d.path())) {
                    if (dir != null) for (DirectoryBlock b : done) {
                        for (Entry f : b.files()) record(f.name(), f.stat(), statOrNull(dir, f.name()), entries);
                        if (b.directory() != null) record(SELF, b.directory().stat(), Posix.fstat(dir), entries);
                    }
                }
                records += entries.size();
                if (!entries.isEmpty()) blocks.add(new LedgerBlock(d.path(), entries));
            }
        }
        StateLedger.writePart(generation, blocks);
        return List.of(records);
    }

    private static void record(byte[] name, Stat source, Stat destination, List<LedgerBlock.Entry> out) {
        if (destination == null || destination.type() != source.type()) return;
        out.add(new LedgerBlock.Entry(name, source.type(), LedgerBlock.Seen.of(source), LedgerBlock.Seen.of(destination)));
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

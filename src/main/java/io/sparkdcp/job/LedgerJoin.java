package io.sparkdcp.job;

import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.posix.Fd;
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
     * @param proven the records the ledger proved, carried into the next generation as they are
     */
    record Decided(byte[] path, List<DirectoryBlock> left, LedgerBlock proven) implements Serializable {
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
            for (Paired p : share) out.add(decide(p, root));
        }
        return out;
    }

    private static Decided decide(Paired p, Fd root) {
        byte[] path = p.blocks().get(0).path();
        if (p.ledger() == null) return new Decided(path, p.blocks(), new LedgerBlock(path, List.of()));
        Map<ByteBuffer, LedgerBlock.Entry> recorded = p.ledger().byName();
        List<LedgerBlock.Entry> proven = new ArrayList<>();
        List<DirectoryBlock> left = new ArrayList<>();
        Entry directory = null;
        LedgerBlock.Entry directoryProven = null;
        try (Fd dir = openDirectory(root, path)) {
            for (DirectoryBlock b : p.blocks()) {
                List<Entry> files = new ArrayList<>();
                for (Entry f : b.files()) {
                    LedgerBlock.Entry r = recorded.get(ByteBuffer.wrap(f.name()));
                    Stat there = r == null || dir == null ? null : Posix.statAtIfExists(dir, f.name());
                    if (there != null && r.holds(f.stat(), there)) proven.add(r);
                    else files.add(f);
                }
                if (b.directory() != null) directory = b.directory();
                left.add(DirectoryBlock.of(path, null, files));
            }
            LedgerBlock.Entry r = recorded.get(ByteBuffer.wrap(SELF));
            if (directory != null && r != null && dir != null && r.holds(directory.stat(), Posix.fstat(dir))) directoryProven = r;
        }
        boolean filesLeft = left.stream().anyMatch(b -> b.fileCount() > 0);
        // A directory is left alone only when nothing is written in it: a file copied there moves its times.
        if (directoryProven != null && !filesLeft) proven.add(directoryProven);
        else if (directory != null) left.add(DirectoryBlock.of(path, directory, List.of()));
        List<DirectoryBlock> nonEmpty = left.stream().filter(b -> b.entryCount() > 0).toList();
        return new Decided(path, merged(path, nonEmpty), new LedgerBlock(path, proven));
    }

    /** The blocks left of one directory as one (its directory's entry, if left, with its files). */
    private static List<DirectoryBlock> merged(byte[] path, List<DirectoryBlock> blocks) {
        if (blocks.size() <= 1) return blocks;
        Entry directory = null;
        List<Entry> files = new ArrayList<>();
        for (DirectoryBlock b : blocks) {
            if (b.directory() != null) directory = b.directory();
            files.addAll(b.files());
        }
        return List.of(DirectoryBlock.of(path, directory, files));
    }

    /** The blocks the copy still has to do. */
    static Iterable<DirectoryBlock> left(List<Decided> share) {
        List<DirectoryBlock> out = new ArrayList<>();
        for (Decided d : share) out.addAll(d.left());
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
                try (Fd dir = d.left().isEmpty() ? null : openDirectory(root, d.path())) {
                    if (dir != null) for (DirectoryBlock b : d.left()) {
                        for (Entry f : b.files()) record(f.name(), f.stat(), Posix.statAtIfExists(dir, f.name()), entries);
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

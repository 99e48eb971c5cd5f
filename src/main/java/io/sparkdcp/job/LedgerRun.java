package io.sparkdcp.job;

import io.sparkdcp.copy.CopyCounts;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.report.Counted;
import io.sparkdcp.walk.DirectoryBlock;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * One run's use of the state ledger ({@code --state DIR}): the generation in force, if it was made with these
 * roots and options, met with the listing on the tasks ({@link LedgerJoin}); after a fully successful run, the
 * next generation written by the same tasks and put in force. The driver holds counts, not entries.
 */
final class LedgerRun {
    private final String dir;
    private final String fingerprint;
    private final String current;
    private final Consumer<String> log;
    private long proven;

    private LedgerRun(String dir, String fingerprint, String current, Consumer<String> log) {
        this.dir = dir;
        this.fingerprint = fingerprint;
        this.current = current;
        this.log = log;
    }

    /** The ledger of a job with {@code --state} (its roots pinned), or null; one a run cannot use is said once. */
    static LedgerRun of(JobOptions job, Consumer<String> log) {
        String dir = job.listing().state();
        if (dir == null) return null;
        String fingerprint = StateLedger.fingerprint(job.copy(), job.listing());
        return new LedgerRun(dir, fingerprint, StateLedger.current(dir, fingerprint, log), log);
    }

    /** The listing with what the ledger proves unchanged taken out, kept on the tasks for {@link #write}. */
    Spread<LedgerJoin.Decided> decide(Spread<DirectoryBlock> listing, Listed source, CopyOptions copy) {
        Spread<LedgerJoin.Decided> decided;
        if (current == null) {
            decided = listing.mapShares(LedgerRun::undecided).kept();
        } else {
            List<String> parts = StateLedger.parts(current);
            Spread<LedgerBlock> ledger = source.spread(parts).spreadOver(Math.max(1, parts.size())).mapShares(LedgerRun::read);
            decided = LedgerJoin.pair(listing, ledger).mapInTasks("look up the state ledger", share -> LedgerJoin.decide(share, copy)).kept();
        }
        for (long n : decided.mapShares(LedgerRun::provenCount).collect()) proven += n;
        if (current != null) log.accept("the state ledger proved " + Counted.of(proven, "entry") + " unchanged on both sides");
        return decided;
    }

    /** For a dry run: the paths of the entries but directories that the ledger proves unchanged. */
    Spread<PathKey> provenFiles(Spread<DirectoryBlock> listing, Listed source, CopyOptions copy) {
        return decide(listing, source, copy).mapShares(LedgerRun::provenFilePaths);
    }

    private static Iterable<PathKey> provenFilePaths(List<LedgerJoin.Decided> share) {
        List<PathKey> out = new ArrayList<>();
        for (LedgerJoin.Decided d : share)
            for (LedgerBlock.Entry e : d.proven().entries())
                if (e.name().length > 0) out.add(new PathKey(io.sparkdcp.posix.PathBytes.join(d.path(), e.name())));
        return out;
    }

    /** Entries the ledger proved unchanged. */
    long proven() {
        return proven;
    }

    /** After the run: a new generation when nothing failed, put in force at once; else the one in force stays. */
    void write(Spread<LedgerJoin.Decided> decided, CopyCounts counts, boolean listedWhole, CopyOptions copy) {
        if (counts.failed() > 0 || !listedWhole) {
            log.accept("the state ledger in " + dir + " is left as it was: the run had failures");
            return;
        }
        String generation = StateLedger.begin(dir, fingerprint);
        long records = 0;
        for (long n : decided.mapInTasks("write the state ledger", share -> LedgerJoin.write(share, copy, generation)).collect()) records += n;
        StateLedger.commit(generation);
        log.accept("wrote the state ledger (" + Counted.of(records, "entry") + ") to " + dir);
    }

    private static Iterable<LedgerJoin.Decided> undecided(List<DirectoryBlock> blocks) {
        List<LedgerJoin.Decided> out = new ArrayList<>(blocks.size());
        for (DirectoryBlock b : blocks) out.add(new LedgerJoin.Decided(b.path(), List.of(b), List.of(), new LedgerBlock(b.path(), List.of())));
        return out;
    }

    private static Iterable<LedgerBlock> read(List<String> parts) {
        List<LedgerBlock> out = new ArrayList<>();
        for (String part : parts) out.addAll(StateLedger.readPart(part));
        return out;
    }

    private static Iterable<Long> provenCount(List<LedgerJoin.Decided> share) {
        long n = 0;
        for (LedgerJoin.Decided d : share) n += d.provenCount();
        return List.of(n);
    }
}

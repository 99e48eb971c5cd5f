package io.sparkdcp.job.ledger;

import io.sparkdcp.copy.CopyCounts;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.job.exec.JobOptions;
import io.sparkdcp.job.exec.Listed;
import io.sparkdcp.job.exec.PathKey;
import io.sparkdcp.job.exec.Spread;
import io.sparkdcp.job.listing.ListingSummary;
import io.sparkdcp.progress.Work;
import io.sparkdcp.report.Counted;
import io.sparkdcp.walk.DirectoryBlock;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * One run's use of the state ledger ({@code --state DIR}): the generation in force, if it is whole and was made
 * with what decides "identical" for this run ({@link LedgerFingerprint}: copy, sync and sync --delete share one;
 * other filters narrow it), checked on the tasks before anything is deleted or copied ({@link #check}) and
 * met with the listing there ({@link LedgerJoin}); after a fully successful run, the next generation written by
 * the same tasks and put in force. A ledger that cannot be used is said once and the run goes on without it;
 * one that cannot be written is said once and the run's result stands. The driver holds counts, not entries.
 */
public final class LedgerRun {
    private final String dir;
    private final LedgerFingerprint fingerprint;
    private final long startedNanos;
    private final Consumer<String> log;
    private StateLedger.Generation current;
    private boolean checked;
    private long proven;
    /** The listing but what the ledger proved: what the copy is left to do. */
    private ListingSummary left = ListingSummary.EMPTY;

    private LedgerRun(String dir, LedgerFingerprint fingerprint, StateLedger.Generation current, long startedNanos, Consumer<String> log) {
        this.dir = dir;
        this.fingerprint = fingerprint;
        this.current = current;
        this.startedNanos = startedNanos;
        this.log = log;
    }

    /** The ledger of a job with {@code --state} (its roots pinned), or null; one a run cannot use is said once. */
    public static LedgerRun of(JobOptions job, Consumer<String> log) {
        return of(job, log, wallNanos());
    }

    /** @param startedNanos the wall clock before the walk began: a SRC ctime within its granularity of it is not recorded */
    public static LedgerRun of(JobOptions job, Consumer<String> log, long startedNanos) {
        String dir = job.listing().state();
        if (dir == null) return null;
        LedgerFingerprint fingerprint = LedgerFingerprint.of(job.copy(), job.listing());
        StateLedger.Generation current = StateLedger.current(dir, fingerprint, log);
        if (current != null && !current.sameScope())
            log.accept("the state ledger in " + dir + " was made with other filters: it is used for what this run lists, "
                    + "except files of several links");
        return new LedgerRun(dir, fingerprint, current, startedNanos, log);
    }

    public static long wallNanos() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    /**
     * Before anything is deleted or copied: every part read on the tasks and proved to be the one its HEADER names.
     * One that is not makes the whole ledger unused, said once; nothing here fails the run.
     */
    public void check(Listed source) {
        if (checked) return;
        checked = true;
        if (current == null) return;
        StateLedger.Generation generation = current;
        List<String> damage;
        try {
            damage = parts(source, generation).mapInTasks("check the state ledger", share -> damaged(generation, share)).collect();
        } catch (Exception e) { // a task that failed comes back as Spark's own (checked) exception
            damage = List.of(String.valueOf(e.getMessage()));
        }
        if (damage.isEmpty()) return;
        log.accept("notice: the state ledger in " + dir + " is damaged (" + damage.get(0) + "): not used; this run writes a new one");
        current = null;
    }

    /**
     * The listing with what the ledger proves unchanged taken out, kept on the tasks for {@link #write}; before a copy
     * (not a sync) has run, with what DST holds at the names left to it.
     */
    public Spread<LedgerJoin.Decided> decide(Spread<DirectoryBlock> listing, Listed source, CopyOptions copy) {
        return decide(listing, source, copy, !copy.modes().sync());
    }

    private Spread<LedgerJoin.Decided> decide(Spread<DirectoryBlock> listing, Listed source, CopyOptions copy, boolean seeExisting) {
        check(source);
        Spread<LedgerJoin.Decided> decided;
        StateLedger.Generation generation = current;
        if (generation == null && !seeExisting) {
            decided = listing.mapShares(LedgerRun::undecided).kept();
        } else {
            Spread<LedgerBlock> ledger = generation == null ? source.spread(List.of())
                    : parts(source, generation).mapShares(share -> read(generation, share));
            boolean otherFilters = generation != null && !generation.sameScope();
            LedgerJoin.Lookup lookup = new LedgerJoin.Lookup(!otherFilters, seeExisting, otherFilters);
            decided = LedgerJoin.pair(listing, ledger, otherFilters).mapInTasks("look up the state ledger", share -> LedgerJoin.decide(share, copy, lookup)).kept();
        }
        for (ShareDecided c : decided.mapShares(LedgerRun::decided).collect()) {
            proven += c.proven();
            left = left.plus(c.left());
        }
        if (generation != null) log.accept("the state ledger proved " + Counted.of(proven, "entry") + " unchanged on both sides");
        return decided;
    }

    private static Spread<StateLedger.Part> parts(Listed source, StateLedger.Generation generation) {
        return source.spread(generation.parts()).spreadOver(Math.max(1, generation.parts().size()));
    }

    /** For a dry run: the paths of the entries but directories that the ledger proves unchanged. */
    public Spread<PathKey> provenFiles(Spread<DirectoryBlock> listing, Listed source, CopyOptions copy) {
        return decide(listing, source, copy, false).mapShares(LedgerRun::provenFilePaths);
    }

    private static Iterable<PathKey> provenFilePaths(List<LedgerJoin.Decided> share) {
        List<PathKey> out = new ArrayList<>();
        for (LedgerJoin.Decided d : share)
            for (LedgerBlock.Entry e : d.proven().entries())
                if (e.name().length > 0) out.add(new PathKey(io.sparkdcp.posix.PathBytes.join(d.path(), e.name())));
        return out;
    }

    /** The entries and data bytes the ledger left to the copy (for progress: the engine never sees the rest). */
    public Work toCopy() {
        return new Work(left.entries(), left.dataBytes());
    }

    /** Entries the ledger proved unchanged. */
    public long proven() {
        return proven;
    }

    /**
     * After the run: a new generation when nothing failed, put in force at once; else the one in force stays. An
     * entry is recorded only when SRC and DST are found identical in every kind the run keeps ({@link LedgerJoin#write}).
     */
    public void write(Spread<LedgerJoin.Decided> decided, CopyCounts counts, boolean listedWhole, CopyOptions copy) {
        if (counts.failed() > 0 || !listedWhole) {
            log.accept("the state ledger in " + dir + " is left as it was: the run had failures");
            return;
        }
        // A notice (a flag or layout DST cannot hold, an entry skipped) may stand for a kind left different on entries
        // it does not name: each entry is then compared in full before it is recorded.
        boolean compareAll = !counts.notices().isEmpty();
        String generation = null;
        try {
            generation = StateLedger.begin(dir);
            String writing = generation;
            long started = startedNanos;
            List<StateLedger.Part> parts = new ArrayList<>();
            long records = 0;
            for (LedgerJoin.Written w : decided.mapInTasks("write the state ledger", share -> LedgerJoin.write(share, copy, writing, started, compareAll)).collect()) {
                records += w.records();
                if (w.part() != null) parts.add(w.part());
            }
            StateLedger.commit(generation, fingerprint, StateLock.holder(), parts);
            log.accept("wrote the state ledger (" + Counted.of(records, "entry") + ") to " + dir);
        } catch (Exception e) { // a task that failed comes back as Spark's own (checked) exception
            log.accept("notice: the state ledger in " + dir + " could not be written (" + e.getMessage()
                    + "): the run's copy stands; the next run looks at what this one could not record");
            if (generation != null) abandonQuietly(generation);
        }
    }

    private static void abandonQuietly(String generation) {
        try {
            StateLedger.abandon(generation);
        } catch (RuntimeException e) {
            // the next run that puts a generation in force drops it
        }
    }

    private static Iterable<LedgerJoin.Decided> undecided(List<DirectoryBlock> blocks) {
        List<LedgerJoin.Decided> out = new ArrayList<>(blocks.size());
        for (DirectoryBlock b : blocks) out.add(LedgerJoin.Decided.undecided(b.path(), List.of(b)));
        return out;
    }

    /** What is wrong with each of these parts, if anything. */
    private static Iterable<String> damaged(StateLedger.Generation generation, List<StateLedger.Part> parts) {
        List<String> out = new ArrayList<>();
        for (StateLedger.Part part : parts) {
            try {
                StateLedger.readPart(generation, part);
            } catch (IOException | RuntimeException e) {
                out.add(String.valueOf(e.getMessage()));
            }
        }
        return out;
    }

    /** The parts' blocks; one found damaged now (after the check: only by a hand outside the lock) proves nothing. */
    private static Iterable<LedgerBlock> read(StateLedger.Generation generation, List<StateLedger.Part> parts) {
        List<LedgerBlock> out = new ArrayList<>();
        for (StateLedger.Part part : parts) {
            try {
                out.addAll(StateLedger.readPart(generation, part));
            } catch (IOException | RuntimeException e) {
                // its entries are looked at in full
            }
        }
        return out;
    }

    /** A share's entries the ledger proved, and what it left to the copy. */
    private record ShareDecided(long proven, ListingSummary left) implements java.io.Serializable {}

    private static Iterable<ShareDecided> decided(List<LedgerJoin.Decided> share) {
        long n = 0;
        List<DirectoryBlock> left = new ArrayList<>();
        for (LedgerJoin.Decided d : share) {
            n += d.provenCount();
            left.addAll(d.left());
            left.addAll(d.suspect());
        }
        return List.of(new ShareDecided(n, ListingSummary.of(left, List.of(), 0)));
    }
}

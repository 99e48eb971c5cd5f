package io.sparkdcp.copy;

import io.sparkdcp.copy.ItemLog.Action;
import io.sparkdcp.copy.compare.Difference;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.walk.Entry;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.Map;

/**
 * Per-entry outcomes of a batch or a whole job: copied and skipped by type, failures with their
 * reasons, bytes written; for sync, entries whose metadata alone was fixed and entries deleted; files
 * verified. Mergeable. Hard links made with linkat count as {@code links}. The engine counts each
 * entry by the entry, which also tells its {@link ItemLog}; the driver adds only failures of the
 * job as a whole (walk errors, a refused deletion, failed chunks).
 */
public final class CopyCounts implements Serializable {
    /** Failures kept in full; beyond this only counted, so a job where everything fails stays in memory. */
    public static final int MAX_FAILURES_KEPT = 100_000;

    private final EnumMap<FileType, Long> copied = new EnumMap<>(FileType.class);
    private final EnumMap<FileType, Long> skipped = new EnumMap<>(FileType.class);
    private final EnumMap<FileType, Long> metadataFixed = new EnumMap<>(FileType.class);
    private final EnumMap<FileType, Long> deleted = new EnumMap<>(FileType.class);
    private long keptNewer;
    private long verified;
    private long links;
    private long linksSkipped;
    private long failed;
    private long bytesCopied;
    private final List<Failure> failures = new ArrayList<>();
    private final List<Failure> notices = new ArrayList<>();
    /** The engine's side only: not shipped with the counts. */
    private final transient ItemLog items;
    /** The failures kept, as a set: built when first needed (also after the counts were shipped). */
    private transient Set<Failure> kept;

    public CopyCounts() { this(ItemLog.NONE); }

    public CopyCounts(ItemLog items) { this.items = items; }

    public void addCopied(Entry e) {
        copied.merge(e.type(), 1L, Long::sum);
        items.record(Action.COPIED, e.type(), e.path(), null);
    }

    public void addSkipped(Entry e) {
        skipped.merge(e.type(), 1L, Long::sum);
        items.record(Action.SKIPPED, e.type(), e.path(), null);
    }

    /** Skipped for a reason the user should see, without failing the job (a device as non-root). */
    public void addSkipped(Entry e, Failure notice) {
        addSkipped(e);
        if (notices.size() < MAX_FAILURES_KEPT) notices.add(notice);
    }

    /** Something the user should see that neither failed nor skipped an entry (a mount point --delete left alone). */
    public void addNotice(Failure notice) {
        if (notices.size() < MAX_FAILURES_KEPT) notices.add(notice);
    }

    /** A notice that is given once per job: dropped when one with the same op and message is there. */
    public void addNoticeOnce(Failure notice) {
        if (!hasNotice(notice)) addNotice(notice);
    }

    private boolean hasNotice(Failure n) {
        for (Failure f : notices) if (f.op().equals(n.op()) && f.message().equals(n.message())) return true;
        return false;
    }

    /** The data was already there; only owner, mode, times, xattrs or project ID were set: the kinds set. */
    public void addMetadataFixed(Entry e, Set<Difference.Kind> kinds) {
        metadataFixed.merge(e.type(), 1L, Long::sum);
        items.fixed(e.type(), e.path(), kinds);
    }

    /** --update: left as it is because the destination's file is newer. */
    public void addKeptNewer(Entry e) {
        keptNewer++;
        items.record(Action.KEPT_NEWER, e.type(), e.path(), null);
    }

    /** Removed from the destination because the source no longer has it. */
    public void addDeleted(Entry e) {
        deleted.merge(e.type(), 1L, Long::sum);
        items.record(Action.DELETED, e.type(), e.path(), null);
    }

    /** A file whose destination was re-read and matched the source's CRC32C. */
    public void addVerified() { verified++; }

    /** e's name made with linkat to the copy of its first name. */
    public void addLink(Entry e) {
        links++;
        items.record(Action.LINKED, e.type(), e.path(), null);
    }

    public void addLinkSkipped(Entry e) {
        linksSkipped++;
        items.record(Action.SKIPPED, e.type(), e.path(), null);
    }

    public void addBytes(long n) { bytesCopied += n; }

    /** The engine's failure of one entry. */
    public void addFailure(Entry e, Failure f) {
        if (count(f)) items.record(Action.FAILED, e.type(), e.path(), f);
    }

    /** A failure of the job rather than of an entry the engine handled. */
    public void addFailure(Failure f) {
        if (count(f)) items.jobFailure(f);
    }

    /** Counts a failure unless it repeats one kept; true when counted. */
    private boolean count(Failure f) {
        if (repeats(f)) return false;
        failed++;
        if (failures.size() < MAX_FAILURES_KEPT) failures.add(f);
        return true;
    }

    /** Failures of the job known only by their number: the ones past what a walk's summary kept. */
    public void addFailuresNotKept(long n) {
        if (n < 0) throw new IllegalArgumentException("a negative number of failures: " + n);
        failed += n;
    }

    /**
     * True when the same failure, word for word, is already kept: a directory the walk could not open
     * fails again, with the same call and errno, in each phase that opens it (its making and finish
     * on a re-run, where DST's copy is as unreadable). The entry failed once; it is counted and shown once.
     */
    private boolean repeats(Failure f) {
        if (failures.size() >= MAX_FAILURES_KEPT) return false;
        if (kept == null) kept = new HashSet<>(failures);
        return !kept.add(f);
    }

    public void merge(CopyCounts o) {
        o.copied.forEach((t, n) -> copied.merge(t, n, Long::sum));
        o.skipped.forEach((t, n) -> skipped.merge(t, n, Long::sum));
        o.metadataFixed.forEach((t, n) -> metadataFixed.merge(t, n, Long::sum));
        o.deleted.forEach((t, n) -> deleted.merge(t, n, Long::sum));
        keptNewer += o.keptNewer;
        verified += o.verified;
        links += o.links;
        linksSkipped += o.linksSkipped;
        failed += o.failed;
        bytesCopied += o.bytesCopied;
        for (Failure f : o.failures) {
            if (repeats(f)) failed--; // counted by both
            else if (failures.size() < MAX_FAILURES_KEPT) failures.add(f);
        }
        for (Failure f : o.notices) {
            // one per flag kind, one for a DST without flock and one for owners not kept, whatever the engines
            if (f.op().equals(FlagRefusals.NOTICE_OP) || f.op().equals(AttemptLocks.NOTICE_OP)
                    || f.op().equals(OwnersNotKept.NOTICE_OP)) addNoticeOnce(f);
            else addNotice(f);
        }
    }

    /**
     * These counts with each failure's and notice's path shown under {@code name} (one of several
     * sources: its paths relative to DST, so that the report tells the sources apart).
     */
    public CopyCounts under(String name) {
        CopyCounts out = new CopyCounts();
        out.merge(this);
        if (name.isEmpty()) return out; // a file source: its paths are its name in DST already
        out.failures.replaceAll(f -> under(name, f));
        out.kept = null;
        out.notices.replaceAll(f -> under(name, f));
        return out;
    }

    private static Failure under(String name, Failure f) {
        return new Failure(f.path().equals(".") ? name : name + "/" + f.path(), f.op(), f.errno(), f.message());
    }

    public long copied() { return sum(copied) + links; }

    public long skipped() { return sum(skipped) + linksSkipped; }

    public long copied(FileType t) { return copied.getOrDefault(t, 0L); }

    public long skipped(FileType t) { return skipped.getOrDefault(t, 0L); }

    public long metadataFixed() { return sum(metadataFixed); }

    public long deleted() { return sum(deleted); }

    public long metadataFixed(FileType t) { return metadataFixed.getOrDefault(t, 0L); }

    public long deleted(FileType t) { return deleted.getOrDefault(t, 0L); }

    public long verified() { return verified; }

    /** Files --update left as they were, their destination being newer. */
    public long keptNewer() { return keptNewer; }

    public Map<FileType, Long> metadataFixedByType() { return Collections.unmodifiableMap(metadataFixed); }

    public Map<FileType, Long> deletedByType() { return Collections.unmodifiableMap(deleted); }

    public long links() { return links; }

    public long linksSkipped() { return linksSkipped; }

    public long failed() { return failed; }

    public long bytesCopied() { return bytesCopied; }

    public List<Failure> failures() { return Collections.unmodifiableList(failures); }

    public List<Failure> notices() { return Collections.unmodifiableList(notices); }

    public Map<FileType, Long> copiedByType() { return Collections.unmodifiableMap(copied); }

    public Map<FileType, Long> skippedByType() { return Collections.unmodifiableMap(skipped); }

    private static long sum(Map<FileType, Long> m) {
        long s = 0;
        for (long v : m.values()) s += v;
        return s;
    }
}

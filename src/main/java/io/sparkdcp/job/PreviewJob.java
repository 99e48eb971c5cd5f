package io.sparkdcp.job;

import io.sparkdcp.itemlog.TaskItemLog;
import io.sparkdcp.copy.CopyCounts;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.copy.decision.Decision;
import io.sparkdcp.copy.ItemLog;
import io.sparkdcp.copy.KeptEntryReader;
import io.sparkdcp.copy.compare.Difference;
import io.sparkdcp.copy.decision.Protection;
import io.sparkdcp.copy.options.RootFile;
import io.sparkdcp.job.exec.JobOptions;
import io.sparkdcp.job.exec.Listed;
import io.sparkdcp.job.exec.PathKey;
import io.sparkdcp.job.exec.PhaseRunner;
import io.sparkdcp.job.exec.Spread;
import io.sparkdcp.job.ledger.LedgerRun;
import io.sparkdcp.job.listing.ListingSummary;
import io.sparkdcp.plan.Planner;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.walk.DirectoryBlock;
import io.sparkdcp.walk.Entry;
import io.sparkdcp.walk.TreeWalker;

import java.io.Serializable;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A dry run ({@code copy --dry-run}, {@code sync --dry-run}, with --delete too), written once as its phases
 * over {@link Spread}s that live wherever the runner's {@link Listed} keeps the listing: list SRC and DST →
 * what sync --delete removes ({@link CopyJob#extraneous}, the run's rule) → both listings and the deletions
 * grouped by the directory each entry is named in → each source entry judged against DST's entry at its path
 * once the deletions are done, by {@link SyncPreview}'s per-entry rules → what the run reads of each entry the
 * stats would keep, read as it reads it, but for what the ledger proves (--state) → further names of a linked file as the
 * run links them → directories whose names change → what lies beneath a refused directory → the counts and
 * the first {@link #SHOWN} entries of each list, in path order. Besides those, only the deletions the run
 * refuses and the directories it refuses come to the driver; with --log, each entry's line too, which the
 * driver writes.
 */
public final class PreviewJob {
    /** Entries of each list the driver receives and prints; the totals count all. */
    public static final int SHOWN = CopyCounts.MAX_FAILURES_KEPT;
    /** The phase that reads both sides of the entries the stats would keep. */
    private static final String READING = "dry run: read what the run reads";

    private final JobOptions options;
    private final PhaseRunner runner;
    private final Consumer<String> log;

    public PreviewJob(JobOptions options, PhaseRunner runner, Consumer<String> log) {
        this.options = options;
        this.runner = runner;
        this.log = log;
    }

    /**
     * @param delete            sync --delete
     * @param destinationExists false: DST is not there, everything is copied
     */
    public SyncPreview run(boolean delete, boolean destinationExists) {
        try (TaskItemLog lines = TaskItemLog.forDriver(options.copy())) {
            SyncPreview preview;
            try (Listed source = runner.list(options, log, block -> {}, Long.MAX_VALUE)) {
                preview = new Recipe(source, delete, destinationExists, lines.log()).run();
            }
            lines.commit();
            return preview;
        }
    }

    /** What sits in one directory's group. */
    enum Part { SOURCE_FILES, SOURCE_DIRECTORY, DESTINATION_FILES, DESTINATION_DIRECTORY, DELETED }

    /** In the group of the directory {@code group}: a side's block of files, or one entry (a side's subdirectory, or a deletion). */
    record Side(PathKey group, Part part, DirectoryBlock files, Entry entry) implements Serializable {}

    /**
     * One entry's decision, with the destination's entry at its path once the deletions are done (or null).
     *
     * @param parentRefusal why its directory, protected at DST, takes no new name (null: it may)
     * @param deletion      the decision is on a destination entry sync --delete would remove: refused, it stays
     * @param laterName     a further name of a linked file, which the run links to the first
     */
    record Verdict(Entry entry, Decision decision, Set<Difference.Kind> kinds, Entry there, String parentRefusal, boolean deletion,
                   boolean laterName) implements Serializable {
        /** The same entry with another decision: one that would make a name in a protected directory is refused. */
        Verdict deciding(Decision d) {
            return deciding(new KeptEntryReader.Judged(d, Set.of()));
        }

        /** As above, with the kinds of metadata the decision fixes. */
        Verdict deciding(KeptEntryReader.Judged judged) {
            Decision d = judged.decision();
            if (parentRefusal != null && SyncPreview.changesName(d) && !entry.isRoot()) d = new Decision(Decision.Kind.REFUSE, parentRefusal);
            return new Verdict(entry, d, d == judged.decision() ? judged.kinds() : Set.of(), there, parentRefusal, deletion, laterName);
        }

        Verdict later() { return new Verdict(entry, decision, kinds, there, parentRefusal, deletion, true); }

        /** Names change in this directory (removed: some are removed); the run unlocks it for that where it must. */
        Verdict changedBeneath(CopyOptions copy, boolean removed) {
            Decision d = SyncPreview.afterChildrenChanged(decision, entry, there, copy);
            boolean unlocked = copy.flags() && there != null && Protection.unlockedForNames(there.stat().locks(), removed);
            Set<Difference.Kind> k = d.kind() == Decision.Kind.FIX_METADATA ? KeptEntryReader.withChildrenChanged(kinds, unlocked) : Set.of();
            return new Verdict(entry, d, k, there, parentRefusal, deletion, laterName);
        }
    }

    /** A group's verdict, or (no verdict) the mark that deletions change names in the group's directory. */
    record Judged(PathKey directory, Verdict verdict) implements Serializable {}

    /** A judged entry: the list it goes to, and the line the run logs of it. */
    record Line(SyncPreview.Action action, Entry entry, String reason, ItemLog.Action logged, Set<Difference.Kind> kinds)
            implements Serializable {}

    /** One run's phases over one listing. Its functions are static or local: they travel to the executors. */
    private final class Recipe {
        private final Listed source;
        private final CopyOptions copy;
        private final boolean delete;
        private final boolean destinationExists;
        private final ItemLog items;
        private final int groups;

        Recipe(Listed source, boolean delete, boolean destinationExists, ItemLog items) {
            this.source = source;
            this.copy = options.copy();
            this.delete = delete;
            this.destinationExists = destinationExists;
            this.items = items;
            this.groups = Math.max(1, runner.parallelism());
        }

        SyncPreview run() {
            Spread<DirectoryBlock> sourceBlocks = source.wholeListing();
            ListingSummary listing = source.summary();
            Spread<DirectoryBlock> destination = destination();
            // A file as SRC maps onto one name: nothing beside it is deleted, as in the run.
            boolean deletes = delete && copy.rootFile() == null;
            String deletionRefused = deletes && !listing.complete() ? SyncPreview.deletionRefused(listing.errorCount()) : null;
            Spread<Entry> deleted = deletes && deletionRefused == null
                    ? CopyJob.extraneous(destination, sourceBlocks, copy.destinationRoot()).filter(x -> x.mountPoint() == null)
                    .mapShares(CopyJob::entries).kept()
                    : source.spread(List.of());
            Spread<List<Side>> byDirectory = sides(sourceBlocks, true).union(sides(destination, false))
                    .union(deleted.mapShares(PreviewJob::deletedSides)).grouped(Side::group, groups).kept();
            HashSet<PathKey> kept = keptDeletions(byDirectory);
            Spread<Entry> removed = kept.isEmpty() ? deleted : deleted.filter(d -> !kept.contains(new PathKey(d.path()))).kept();
            Spread<Line> lines = lines(judged(byDirectory, kept, namesLost(removed), sourceBlocks));
            if (copy.itemLog() != null) log(lines, removed, listing, deletionRefused);
            return preview(lines, removed, listing, deletionRefused);
        }

        /**
         * What the run reads of each entry the stats would keep ({@link KeptEntryReader}), but with --state for what the
         * ledger proves unchanged on both sides, which the run leaves as it is unread (no ledger is written).
         */
        private Spread<Verdict> read(Spread<Verdict> verdicts, Spread<DirectoryBlock> sourceBlocks) {
            CopyOptions reading = copy; // a local: the functions travel without this recipe
            LedgerRun ledger = destinationExists && copy.rootFile() == null ? LedgerRun.of(options, log) : null;
            if (ledger == null) return verdicts.mapInTasks(READING, share -> readKept(share, new boolean[share.size()], reading));
            return verdicts.marked(v -> new PathKey(v.entry().path()), ledger.provenFiles(sourceBlocks, source, copy))
                    .mapInTasks(READING, share -> readUnlessProven(share, reading));
        }

        private Spread<DirectoryBlock> destination() {
            if (!destinationExists) return source.spread(List.of());
            RootFile file = copy.rootFile();
            if (file != null)
                return source.spread(TreeWalker.walkOne(copy.destinationRoot(), file.destinationName(), file.destinationName(), false).blocks());
            return source.destination(copy.destinationRoot(), copy.readsFsXattr(), options.listing().destinationFilter()).blocks();
        }

        /** The deletions the run refuses (protected at DST: few), and each directory above them: they stay. */
        private HashSet<PathKey> keptDeletions(Spread<List<Side>> byDirectory) {
            boolean flags = copy.flags();
            HashSet<PathKey> kept = new HashSet<>();
            for (PathKey p : byDirectory.mapShares(share -> refusedDeletions(share, flags)).collect()) {
                kept.add(p);
                for (ByteBuffer above : SyncPreview.ancestors(p.path())) kept.add(new PathKey(above.array()));
            }
            return kept;
        }

        /** How many names each linked file loses to the deletions, wherever they are: its copy has that many links fewer. */
        private HashMap<List<Long>, Integer> namesLost(Spread<Entry> removed) {
            HashMap<List<Long>, Integer> lost = new HashMap<>();
            for (NamesLost n : removed.filter(e -> SyncPreview.linkedInode(e) != null).grouped(SyncPreview::linkedInode, groups)
                    .mapShares(PreviewJob::namesLostBy).collect())
                lost.put(n.inode(), n.names());
            return lost;
        }

        /**
         * Every entry's decision: further names of a linked file as the run links them, and a directory's once
         * it is known whether the run changes names in it ({@link Decision#afterChildrenChanged}).
         */
        private Spread<Verdict> judged(Spread<List<Side>> byDirectory, HashSet<PathKey> kept, HashMap<List<Long>, Integer> namesLost,
                                       Spread<DirectoryBlock> sourceBlocks) {
            CopyOptions judging = copy; // a local: the functions travel without this recipe
            Spread<Judged> judged = byDirectory.mapShares(share -> judgeGroups(share, judging, kept, namesLost));
            // Kept, both: each is read more than once below, and reading opens entries on both sides.
            Spread<Verdict> all = read(judged.filter(j -> j.verdict() != null).mapShares(PreviewJob::verdicts), sourceBlocks).kept();
            Spread<Verdict> verdicts = all.filter(v -> v.deletion() || SyncPreview.linkedInode(v.entry()) == null)
                    .union(all.filter(v -> !v.deletion() && SyncPreview.linkedInode(v.entry()) != null)
                            .grouped(v -> SyncPreview.linkedInode(v.entry()), groups).mapShares(PreviewJob::linked))
                    .kept();
            // Where the run removes a name (a deletion, a replacement), and where it makes one.
            Spread<PathKey> removing = judged.filter(j -> j.verdict() == null).mapShares(PreviewJob::directories)
                    .union(verdicts.filter(v -> !v.deletion() && v.decision().kind() == Decision.Kind.REPLACE && !v.entry().isRoot())
                            .mapShares(PreviewJob::parents))
                    .distinct(k -> k);
            Spread<PathKey> touched = removing
                    .union(verdicts.filter(v -> !v.deletion() && SyncPreview.changesName(v.decision()) && !v.entry().isRoot())
                            .mapShares(PreviewJob::parents))
                    .distinct(k -> k);
            Spread<Verdict> directories = verdicts.filter(v -> !v.deletion() && v.entry().type() == FileType.DIRECTORY)
                    .marked(v -> new PathKey(v.entry().path()), touched).mapShares(share -> changedBeneath(share, judging, false))
                    .marked(v -> new PathKey(v.entry().path()), removing).mapShares(share -> changedBeneath(share, judging, true));
            return verdicts.filter(v -> v.deletion() || v.entry().type() != FileType.DIRECTORY).union(directories);
        }

        /**
         * Each verdict as the list its entry goes to; what lies beneath a directory the run refuses to make is
         * refused too (those directories, failures each, are gathered on the driver and sent back).
         */
        private Spread<Line> lines(Spread<Verdict> verdicts) {
            ArrayList<byte[]> refused = new ArrayList<>(verdicts
                    .filter(v -> !v.deletion() && SyncPreview.neverMade(v.entry(), v.decision())).mapShares(PreviewJob::paths).collect());
            boolean sync = copy.modes().sync();
            return verdicts.mapShares(share -> linesOf(share, refused, sync)).kept();
        }

        /** The lines the run would log: each judged entry's, each deletion's, and the job's failures. */
        private void log(Spread<Line> lines, Spread<Entry> removed, ListingSummary listing, String deletionRefused) {
            for (Line l : lines.collect()) {
                if (l.logged() == ItemLog.Action.FIXED) items.fixed(l.entry().type(), l.entry().path(), l.kinds());
                else items.record(l.logged(), l.entry().type(), l.entry().path(),
                        l.logged() == ItemLog.Action.FAILED ? SyncPreview.refusal(l.entry(), l.reason()) : null);
            }
            for (Entry d : removed.collect()) items.record(ItemLog.Action.DELETED, d.type(), d.path(), null);
            listing.errors().forEach(items::jobFailure);
            if (deletionRefused != null) items.jobFailure(new Failure(CopyJob.WHOLE_TREE, "delete", "", "deletion refused: " + deletionRefused));
        }

        private SyncPreview preview(Spread<Line> lines, Spread<Entry> removed, ListingSummary listing, String deletionRefused) {
            long[] byAction = lines.countBy(l -> l.action().ordinal(), "dry run: count each list");
            List<Entry> toCopy = entries(lines, SyncPreview.Action.COPY, byAction);
            List<SyncPreview.Fix> toFix = shown(lines, SyncPreview.Action.FIX_METADATA, byAction).stream()
                    .map(l -> new SyncPreview.Fix(l.entry(), l.kinds())).toList();
            List<Entry> keptNewer = entries(lines, SyncPreview.Action.KEPT_NEWER, byAction);
            List<Failure> refused = shown(lines, SyncPreview.Action.REFUSED, byAction).stream()
                    .map(l -> SyncPreview.refusal(l.entry(), l.reason())).toList();
            long deletions = removed.count();
            List<Entry> toDelete = deletions == 0 ? List.of() : removed.takeOrdered(SHOWN, SyncPreview.DELETION_ORDER);
            SyncPreview.NotShown notShown = new SyncPreview.NotShown(
                    count(byAction, SyncPreview.Action.COPY) - toCopy.size(), count(byAction, SyncPreview.Action.FIX_METADATA) - toFix.size(),
                    deletions - toDelete.size(), count(byAction, SyncPreview.Action.REFUSED) - refused.size(),
                    count(byAction, SyncPreview.Action.KEPT_NEWER) - keptNewer.size(), listing.errorCount() - listing.errors().size());
            return new SyncPreview(toCopy, toFix, toDelete, refused, count(byAction, SyncPreview.Action.UNCHANGED), keptNewer,
                    listing.errors(), deletionRefused, notShown);
        }
    }

    private static Spread<Side> sides(Spread<DirectoryBlock> blocks, boolean source) {
        return blocks.mapShares(share -> sidesOf(share, source));
    }

    /** A block's files in its own directory's group, and the directory's own entry in its parent's (the root's in its own). */
    private static Iterable<Side> sidesOf(List<DirectoryBlock> blocks, boolean source) {
        List<Side> out = new ArrayList<>();
        for (DirectoryBlock b : blocks) {
            out.add(new Side(new PathKey(b.path()), source ? Part.SOURCE_FILES : Part.DESTINATION_FILES, b, null));
            if (b.directory() != null)
                out.add(new Side(parentKey(b.directory()), source ? Part.SOURCE_DIRECTORY : Part.DESTINATION_DIRECTORY, null, b.directory()));
        }
        return out;
    }

    private static Iterable<Side> deletedSides(List<Entry> deleted) {
        return deleted.stream().map(d -> new Side(parentKey(d), Part.DELETED, null, d)).toList();
    }

    /** The directory an entry is named in; the root's own. */
    private static PathKey parentKey(Entry e) {
        return new PathKey(e.isRoot() ? PathBytes.EMPTY : e.parent());
    }

    /** One directory's group: the source's entries named in it, the destination's by path, deletions, and the directory on each side. */
    private record Group(PathKey directory, List<Entry> here, Map<ByteBuffer, Entry> there, List<Entry> deleted, Entry sourceDirectory,
                         Entry destinationDirectory) {
        static Group of(List<Side> sides) {
            List<Entry> here = new ArrayList<>();
            Map<ByteBuffer, Entry> there = new HashMap<>();
            List<Entry> deleted = new ArrayList<>();
            Entry sourceDirectory = null;
            Entry destinationDirectory = null;
            for (Side s : sides) {
                switch (s.part()) {
                    case SOURCE_FILES -> {
                        here.addAll(s.files().files());
                        if (s.files().directory() != null) sourceDirectory = s.files().directory();
                    }
                    case SOURCE_DIRECTORY -> here.add(s.entry());
                    case DESTINATION_FILES -> {
                        s.files().files().forEach(d -> there.put(ByteBuffer.wrap(d.path()), d));
                        if (s.files().directory() != null) destinationDirectory = s.files().directory();
                    }
                    case DESTINATION_DIRECTORY -> there.put(ByteBuffer.wrap(s.entry().path()), s.entry());
                    case DELETED -> deleted.add(s.entry());
                }
            }
            return new Group(sides.get(0).group(), here, there, deleted, sourceDirectory, destinationDirectory);
        }

        /** Why the run leaves d, a deletion, as it is ({@link SyncPreview#deletionRefusal}), or null. */
        String deletionRefusal(Entry d, boolean flags) {
            Entry same = null;
            for (Entry e : here) if (Arrays.equals(e.path(), d.path())) same = e;
            return SyncPreview.deletionRefusal(d, destinationDirectory, sourceDirectory, same, flags);
        }
    }

    private static Iterable<PathKey> refusedDeletions(List<List<Side>> groups, boolean flags) {
        List<PathKey> out = new ArrayList<>();
        for (List<Side> sides : groups) {
            Group g = Group.of(sides);
            for (Entry d : g.deleted()) if (g.deletionRefusal(d, flags) != null) out.add(new PathKey(d.path()));
        }
        return out;
    }

    private record NamesLost(List<Long> inode, int names) implements Serializable {}

    private static Iterable<NamesLost> namesLostBy(List<List<Entry>> byInode) {
        return byInode.stream().map(names -> new NamesLost(SyncPreview.linkedInode(names.get(0)), names.size())).toList();
    }

    private static Iterable<Judged> judgeGroups(List<List<Side>> groups, CopyOptions copy, Set<PathKey> kept,
                                                Map<List<Long>, Integer> namesLost) {
        List<Judged> out = new ArrayList<>();
        int euid = Posix.geteuid();
        for (List<Side> sides : groups) judgeGroup(Group.of(sides), copy, euid, kept, namesLost, out);
        return out;
    }

    /** One directory's entries on both sides: each source entry judged by its stats, and a mark when deletions change names there. */
    private static void judgeGroup(Group g, CopyOptions copy, int euid, Set<PathKey> kept, Map<List<Long>, Integer> namesLost,
                                   List<Judged> out) {
        Map<ByteBuffer, Entry> there = g.there();
        // The copy runs after the deletions: it meets what they leave, and what the run may not delete.
        boolean deletes = false;
        for (Entry d : g.deleted()) {
            if (kept.contains(new PathKey(d.path()))) {
                String reason = g.deletionRefusal(d, copy.flags());
                out.add(new Judged(g.directory(), new Verdict(d, new Decision(Decision.Kind.REFUSE,
                        reason != null ? reason : Protection.NOT_EMPTIED), Set.of(), null, null, true, false)));
                continue;
            }
            there.remove(ByteBuffer.wrap(d.path()));
            deletes = true;
        }
        SyncPreview.withNamesLost(there, namesLost);
        String parentRefusal = SyncPreview.parentRefusal(g.destinationDirectory(), g.sourceDirectory(), copy.flags());
        for (Entry e : g.here()) {
            Entry d = there.get(ByteBuffer.wrap(e.path()));
            out.add(new Judged(g.directory(), new Verdict(e, null, Set.of(), d, parentRefusal, false, false)
                    .deciding(SyncPreview.byStat(e, d, copy, euid))));
        }
        if (deletes) out.add(new Judged(g.directory(), null)); // the verdicts' own changes are marked once links are judged
    }

    private static Iterable<Verdict> readUnlessProven(List<Spread.Marked<Verdict>> marked, CopyOptions copy) {
        List<Verdict> verdicts = new ArrayList<>(marked.size());
        boolean[] proven = new boolean[marked.size()];
        for (int i = 0; i < proven.length; i++) {
            verdicts.add(marked.get(i).item());
            proven[i] = marked.get(i).marked();
        }
        return readKept(verdicts, proven, copy);
    }

    /**
     * Each entry the stats would keep, once read as the run reads it (one reader for the share: both roots opened
     * once); a file the ledger proved unchanged (proven) is skipped unread, as the run skips it.
     */
    private static Iterable<Verdict> readKept(List<Verdict> verdicts, boolean[] proven, CopyOptions copy) {
        List<Verdict> out = new ArrayList<>(verdicts.size());
        int euid = Posix.geteuid();
        KeptEntryReader reader = null;
        try {
            for (int i = 0; i < verdicts.size(); i++) {
                Verdict v = verdicts.get(i);
                if (proven[i] && !v.deletion() && v.entry().type() != FileType.DIRECTORY)
                    out.add(new Verdict(v.entry(), Decision.SKIP, Set.of(), v.there(), v.parentRefusal(), false, v.laterName()));
                else if (v.deletion() || v.there() == null || !v.decision().keeps()) out.add(v);
                else {
                    if (reader == null) reader = new KeptEntryReader(copy, euid);
                    out.add(v.deciding(SyncPreview.afterReading(v.entry(), v.there(), v.decision(), copy, reader)));
                }
            }
        } finally {
            if (reader != null) reader.close();
        }
        return out;
    }

    private static Iterable<Verdict> verdicts(List<Judged> judged) {
        return judged.stream().map(Judged::verdict).toList();
    }

    private static Iterable<PathKey> directories(List<Judged> marks) {
        return marks.stream().map(Judged::directory).toList();
    }

    private static Iterable<PathKey> parents(List<Verdict> verdicts) {
        return verdicts.stream().map(v -> parentKey(v.entry())).toList();
    }

    private static Iterable<byte[]> paths(List<Verdict> verdicts) {
        return verdicts.stream().map(v -> v.entry().path()).toList();
    }

    /** The names of each linked file: the first in listing order judged as itself, the others as links to it ({@link SyncPreview#decideLink}). */
    private static Iterable<Verdict> linked(List<List<Verdict>> byInode) {
        List<Verdict> all = new ArrayList<>();
        for (List<Verdict> names : byInode) {
            List<Verdict> out = new ArrayList<>(names);
            if (out.size() > 1) { // one name here: copied as a file of its own
                out.sort((a, b) -> Planner.LISTING_ORDER.compare(a.entry(), b.entry()));
                Verdict first = out.get(0);
                for (int i = 1; i < out.size(); i++) {
                    Verdict v = out.get(i);
                    out.set(i, v.deciding(SyncPreview.decideLink(v.there(), first.there(), first.decision())).later());
                }
            }
            all.addAll(out);
        }
        return all;
    }

    /** A directory's verdict once names change in it ({@link SyncPreview#afterChildrenChanged}); removed: names are removed there. */
    private static Iterable<Verdict> changedBeneath(List<Spread.Marked<Verdict>> directories, CopyOptions copy, boolean removed) {
        return directories.stream().map(m -> m.marked() ? m.item().changedBeneath(copy, removed) : m.item()).toList();
    }

    private static Iterable<Line> linesOf(List<Verdict> verdicts, List<byte[]> refusedDirectories, boolean sync) {
        Set<ByteBuffer> refused = new HashSet<>();
        for (byte[] p : refusedDirectories) refused.add(ByteBuffer.wrap(p));
        List<Line> out = new ArrayList<>(verdicts.size());
        for (Verdict v : verdicts) {
            if (!v.deletion() && !refused.isEmpty() && SyncPreview.beneath(v.entry().path(), refused)) {
                out.add(new Line(SyncPreview.Action.REFUSED, v.entry(), SyncPreview.BENEATH_REFUSED, ItemLog.Action.FAILED, Set.of()));
                continue;
            }
            ItemLog.Action logged = SyncPreview.logAction(v.decision().kind(), sync);
            out.add(new Line(SyncPreview.action(v.decision(), sync), v.entry(), v.decision().reason(),
                    v.laterName() && logged == ItemLog.Action.COPIED ? ItemLog.Action.LINKED : logged, v.kinds()));
        }
        return out;
    }

    private static List<Line> shown(Spread<Line> lines, SyncPreview.Action action, long[] byAction) {
        if (count(byAction, action) == 0) return List.of();
        return lines.filter(l -> l.action() == action).takeOrdered(SHOWN, (a, b) -> SyncPreview.PATH_ORDER.compare(a.entry(), b.entry()));
    }

    private static List<Entry> entries(Spread<Line> lines, SyncPreview.Action action, long[] byAction) {
        return shown(lines, action, byAction).stream().map(Line::entry).toList();
    }

    private static long count(long[] byAction, SyncPreview.Action action) {
        return action.ordinal() < byAction.length ? byAction[action.ordinal()] : 0;
    }
}

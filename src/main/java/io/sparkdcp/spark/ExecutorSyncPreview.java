package io.sparkdcp.spark;

import io.sparkdcp.copy.CopyCounts;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.copy.decision.Decision;
import io.sparkdcp.copy.decision.Protection;
import io.sparkdcp.job.JobOptions;
import io.sparkdcp.job.SyncPreview;
import io.sparkdcp.plan.Planner;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.job.CopyJob;
import io.sparkdcp.job.PathKey;
import io.sparkdcp.job.SourceListing;
import io.sparkdcp.job.Spread;
import io.sparkdcp.spark.ParentGroups.Part;
import io.sparkdcp.spark.ParentGroups.Side;
import io.sparkdcp.walk.DirectoryBlock;
import io.sparkdcp.walk.Entry;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import scala.Tuple2;

import java.io.Serializable;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * {@code copy --dry-run} and {@code sync --dry-run} where the copy's plan is the executors' ({@link
 * SourceListing#staysDistributed}): both trees are walked there, their entries grouped by parent directory,
 * and each source entry is judged against the destination's entry of the same path by the dry run's
 * own steps ({@link SyncPreview#decide}, {@link SyncPreview#changesName}, {@link SyncPreview#action}),
 * after what sync --delete would remove ({@link CopyJob#extraneous}, the run's rule). The
 * driver receives the counts and the first {@link #SHOWN} entries of each list, in the driver path's
 * order; never a listing. Only directories refused for a type clash (a failure each) come to the
 * driver whole, so that what lies beneath them is refused too, as the run fails it.
 */
public final class ExecutorSyncPreview {
    /** Entries of each action the driver receives and prints; the totals count all. */
    public static final int SHOWN = CopyCounts.MAX_FAILURES_KEPT;

    private ExecutorSyncPreview() {}

    /**
     * One source entry's decision, with the destination's entry at its path once the deletions are done (or
     * null); null in a group's mark that the run deletes names in that directory.
     *
     * @param parentRefusal why its directory, protected at DST, takes no new name (null: it may)
     * @param deletion      the decision is on a destination entry sync --delete would remove: refused, it stays
     */
    private record Verdict(Entry entry, Decision decision, Entry there, String parentRefusal, boolean deletion) implements Serializable {
        int destinationLocks() { return there == null ? 0 : there.stat().locks(); }

        /** The same entry with another decision: one that would make a name in a protected directory is refused. */
        Verdict deciding(Decision d) {
            if (parentRefusal != null && SyncPreview.changesName(d) && !entry.isRoot()) d = new Decision(Decision.Kind.REFUSE, parentRefusal);
            return new Verdict(entry, d, there, parentRefusal, deletion);
        }
    }

    private record Listed(SyncPreview.Action action, Entry entry, String reason) implements Serializable {}

    /**
     * @param delete            sync --delete
     * @param destinationExists false: DST is not there, everything is copied
     */
    public static SyncPreview of(JobOptions options, boolean delete, boolean destinationExists, SparkPhaseRunner runner,
                                 Consumer<String> log) {
        JavaSparkContext sc = runner.context();
        CopyOptions copy = options.copy();
        ExecutorWalk sourceWalk = new ExecutorWalk(runner, options.walkThreads(), Long.MAX_VALUE, log);
        ExecutorWalk destinationWalk = new ExecutorWalk(runner, options.walkThreads(), Long.MAX_VALUE, log);
        List<JavaRDD<?>> persisted = new ArrayList<>();
        try {
            ExecutorWalk.Walked source = sourceWalk.source(options);
            io.sparkdcp.job.ListingSummary listing = source.summary();
            JavaRDD<DirectoryBlock> destination = destinationExists
                    ? destinationWalk.walk(copy.destinationRoot(), copy.readsFsXattr(), options.listing().destinationFilter()).blocks()
                    : sc.emptyRDD();
            String deletionRefused = delete && !listing.complete() ? SyncPreview.deletionRefused(listing.errorCount()) : null;
            JavaRDD<Entry> deleted = delete && deletionRefused == null
                    ? deleted(runner, destination, source.blocks(), copy.destinationRoot())
                    : sc.emptyRDD();
            deleted.persist(RddSpread.kept(sc.sc()));
            persisted.add(deleted);

            sc.setJobDescription("spark-dcp: dry run, compare the listings");
            JavaPairRDD<PathKey, Iterable<Side>> groups = ParentGroups.byParent(source.blocks(), true).union(ParentGroups.byParent(destination, false))
                    .union(deleted.mapToPair(e -> new Tuple2<>(ParentGroups.parentKey(e), new Side(Part.DELETED, null, e))))
                    .groupByKey().persist(RddSpread.kept(sc.sc()));
            persisted.add(groups.rdd().toJavaRDD());
            // What the run may not delete (protected at DST: few) stays, and so does each directory above it.
            HashSet<PathKey> keptPaths = new HashSet<>();
            for (byte[] p : groups.flatMap(g -> keptDeletions(g._2(), copy.flags()).iterator()).collect()) {
                keptPaths.add(new PathKey(p));
                for (ByteBuffer above : SyncPreview.ancestors(p)) keptPaths.add(new PathKey(above.array()));
            }
            Broadcast<HashSet<PathKey>> kept = sc.broadcast(keptPaths);
            if (!keptPaths.isEmpty()) deleted = deleted.filter(d -> !kept.value().contains(new PathKey(d.path())));
            // Names a linked file loses to the deletions, wherever they are: its copy has that many links fewer.
            Broadcast<Map<List<Long>, Integer>> namesLost = sc.broadcast(new HashMap<>(deleted
                    .filter(e -> SyncPreview.linkedInode(e) != null)
                    .mapToPair(e -> new Tuple2<>(SyncPreview.linkedInode(e), 1)).reduceByKey(Integer::sum).collectAsMap()));
            JavaRDD<Listed> listed = listed(sc, judged(groups, copy, destinationExists, kept, namesLost, persisted), copy.modes().sync())
                    .persist(RddSpread.kept(sc.sc()));
            persisted.add(listed);

            Map<SyncPreview.Action, Long> counts = listed.map(Listed::action).countByValue();
            List<Entry> toCopy = entries(listed, SyncPreview.Action.COPY, counts);
            List<Entry> toFix = entries(listed, SyncPreview.Action.FIX_METADATA, counts);
            List<Entry> keptNewer = entries(listed, SyncPreview.Action.KEPT_NEWER, counts);
            List<Failure> refused = shown(listed, SyncPreview.Action.REFUSED, counts).stream()
                    .map(l -> SyncPreview.refusal(l.entry(), l.reason())).toList();
            long deletions = deleted.count();
            List<Entry> toDelete = deletions == 0 ? List.of() : deleted.takeOrdered(SHOWN, SyncPreview.DELETION_ORDER);
            SyncPreview.NotShown notShown = new SyncPreview.NotShown(
                    count(counts, SyncPreview.Action.COPY) - toCopy.size(), count(counts, SyncPreview.Action.FIX_METADATA) - toFix.size(),
                    deletions - toDelete.size(), count(counts, SyncPreview.Action.REFUSED) - refused.size(),
                    count(counts, SyncPreview.Action.KEPT_NEWER) - keptNewer.size(), listing.errorCount() - listing.errors().size());
            return new SyncPreview(toCopy, toFix, toDelete, refused, count(counts, SyncPreview.Action.UNCHANGED), keptNewer,
                    listing.errors(), deletionRefused, notShown);
        } finally {
            sc.setJobDescription(null);
            for (JavaRDD<?> rdd : persisted) rdd.unpersist(false);
            sourceWalk.release();
            destinationWalk.release();
        }
    }

    /**
     * Every source entry's decision: further names of a linked file as the run links them, and a directory's
     * once it is known whether the run changes names in it ({@link Decision#afterChildrenChanged}).
     */
    private static JavaRDD<Verdict> judged(JavaPairRDD<PathKey, Iterable<Side>> groups, CopyOptions copy, boolean destinationExists,
                                           Broadcast<HashSet<PathKey>> kept, Broadcast<Map<List<Long>, Integer>> namesLost,
                                           List<JavaRDD<?>> persisted) {
        JavaPairRDD<PathKey, Verdict> judged = groups
                .flatMapToPair(g -> judgeGroup(g._1(), g._2(), copy, destinationExists, kept.value(), namesLost.value()).iterator());
        JavaRDD<Verdict> all = judged.values().filter(v -> v != null);
        // Kept: read three times below, and judging reads symlink targets.
        JavaRDD<Verdict> verdicts = all.filter(v -> v.deletion() || SyncPreview.linkedInode(v.entry()) == null)
                .union(all.filter(v -> !v.deletion() && SyncPreview.linkedInode(v.entry()) != null)
                        .groupBy(v -> SyncPreview.linkedInode(v.entry())).flatMap(g -> linked(g._2()).iterator()))
                .persist(RddSpread.kept(groups.context()));
        persisted.add(verdicts);
        JavaPairRDD<PathKey, Boolean> touched = judged.filter(t -> t._2() == null).mapValues(v -> true)
                .union(verdicts.filter(v -> !v.deletion() && SyncPreview.changesName(v.decision()) && !v.entry().isRoot())
                        .mapToPair(v -> new Tuple2<>(ParentGroups.parentKey(v.entry()), true)))
                .reduceByKey((a, b) -> a);
        JavaRDD<Verdict> directories = verdicts.filter(v -> !v.deletion() && v.entry().type() == FileType.DIRECTORY)
                .keyBy(v -> new PathKey(v.entry().path()))
                .leftOuterJoin(touched)
                .map(t -> t._2()._2().isPresent() ? changedBeneath(t._2()._1(), copy) : t._2()._1());
        return verdicts.filter(v -> v.deletion() || v.entry().type() != FileType.DIRECTORY).union(directories);
    }

    /** The names of one linked file: the first in listing order judged as itself, the others as links to it ({@link SyncPreview#decideLink}). */
    private static List<Verdict> linked(Iterable<Verdict> names) {
        List<Verdict> out = new ArrayList<>();
        names.forEach(out::add);
        if (out.size() < 2) return out; // one name here: copied as a file of its own
        out.sort((a, b) -> Planner.LISTING_ORDER.compare(a.entry(), b.entry()));
        Verdict first = out.get(0);
        for (int i = 1; i < out.size(); i++) {
            Verdict v = out.get(i);
            out.set(i, v.deciding(SyncPreview.decideLink(v.there(), first.there(), first.decision())));
        }
        return out;
    }

    /** A directory's verdict once names change in it ({@link SyncPreview#afterChildrenChanged}). */
    private static Verdict changedBeneath(Verdict v, CopyOptions copy) {
        Decision changed = v.decision().afterChildrenChanged().protecting(v.destinationLocks(), v.entry().stat().locks(), copy.flags());
        return new Verdict(v.entry(), changed, v.there(), v.parentRefusal(), false);
    }

    /** The paths of a group's deletions the run refuses ({@link SyncPreview#deletionRefusal}). */
    private static List<byte[]> keptDeletions(Iterable<Side> sides, boolean flags) {
        Group g = Group.of(sides);
        List<byte[]> out = new ArrayList<>();
        for (Entry d : g.deleted) if (g.deletionRefusal(d, flags) != null) out.add(d.path());
        return out;
    }

    /** One directory's group: the source's entries named in it, the destination's by path, deletions, and the directory on each side. */
    private record Group(List<Entry> here, Map<ByteBuffer, Entry> there, List<Entry> deleted, Entry sourceDirectory,
                         Entry destinationDirectory) {
        static Group of(Iterable<Side> sides) {
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
            return new Group(here, there, deleted, sourceDirectory, destinationDirectory);
        }

        String deletionRefusal(Entry d, boolean flags) {
            Entry same = null;
            for (Entry e : here) if (java.util.Arrays.equals(e.path(), d.path())) same = e;
            return SyncPreview.deletionRefusal(d, destinationDirectory, sourceDirectory, same, flags);
        }
    }

    /** One directory's entries on both sides: each source entry judged, and a mark (null verdict) when deletions change names there. */
    private static List<Tuple2<PathKey, Verdict>> judgeGroup(PathKey directory, Iterable<Side> sides, CopyOptions copy,
                                                            boolean destinationExists, Set<PathKey> kept, Map<List<Long>, Integer> namesLost) {
        Group g = Group.of(sides);
        List<Entry> here = g.here();
        Map<ByteBuffer, Entry> there = g.there();
        List<Tuple2<PathKey, Verdict>> out = new ArrayList<>(here.size() + 1);
        // The copy runs after the deletions: it meets what they leave, and what the run may not delete.
        boolean deletes = false;
        for (Entry d : g.deleted()) {
            if (kept.contains(new PathKey(d.path()))) {
                String reason = g.deletionRefusal(d, copy.flags());
                out.add(new Tuple2<>(new PathKey(d.path()), new Verdict(d, new Decision(Decision.Kind.REFUSE,
                        reason != null ? reason : Protection.NOT_EMPTIED), null, null, true)));
                continue;
            }
            there.remove(ByteBuffer.wrap(d.path()));
            deletes = true;
        }
        SyncPreview.withNamesLost(there, namesLost);
        String parentRefusal = SyncPreview.parentRefusal(g.destinationDirectory(), g.sourceDirectory(), copy.flags());
        boolean readsTargets = destinationExists
                && here.stream().anyMatch(e -> e.type() == FileType.SYMLINK && there.containsKey(ByteBuffer.wrap(e.path())));
        int euid = Posix.geteuid();
        try (SyncPreview.Targets targets = readsTargets ? new SyncPreview.Targets(copy) : null) {
            for (Entry e : here) {
                Entry d = there.get(ByteBuffer.wrap(e.path()));
                Verdict v = new Verdict(e, null, d, parentRefusal, false).deciding(SyncPreview.decide(e, d, copy, euid, targets));
                out.add(new Tuple2<>(new PathKey(e.path()), v));
            }
        }
        if (deletes) out.add(new Tuple2<>(directory, null)); // the verdicts' own changes are marked once links are judged
        return out;
    }

    /**
     * Each verdict as the list its entry goes to; what lies beneath a directory refused for a type clash is
     * refused too (those directories, failures each, are gathered on the driver and sent back).
     */
    private static JavaRDD<Listed> listed(JavaSparkContext sc, JavaRDD<Verdict> verdicts, boolean sync) {
        List<byte[]> refusedDirectories = verdicts.filter(v -> !v.deletion() && SyncPreview.neverMade(v.entry(), v.decision()))
                .map(v -> v.entry().path()).collect();
        Broadcast<List<byte[]>> refused = sc.broadcast(new ArrayList<>(refusedDirectories));
        return verdicts.mapPartitions(share -> {
            Set<ByteBuffer> beneath = new HashSet<>();
            for (byte[] p : refused.value()) beneath.add(ByteBuffer.wrap(p));
            return new Iterator<Listed>() { // one at a time: a partition's entries are not all held at once
                @Override
                public boolean hasNext() { return share.hasNext(); }

                @Override
                public Listed next() {
                    Verdict v = share.next();
                    return !beneath.isEmpty() && SyncPreview.beneath(v.entry().path(), beneath)
                            ? new Listed(SyncPreview.Action.REFUSED, v.entry(), SyncPreview.BENEATH_REFUSED)
                            : new Listed(SyncPreview.action(v.decision(), sync), v.entry(), v.decision().reason());
                }
            };
        });
    }

    private static List<Listed> shown(JavaRDD<Listed> listed, SyncPreview.Action action, Map<SyncPreview.Action, Long> counts) {
        if (count(counts, action) == 0) return List.of();
        Comparator<Listed> byPath = (Comparator<Listed> & Serializable) (a, b) -> SyncPreview.PATH_ORDER.compare(a.entry(), b.entry());
        return listed.filter(l -> l.action() == action).takeOrdered(SHOWN, byPath);
    }

    private static List<Entry> entries(JavaRDD<Listed> listed, SyncPreview.Action action, Map<SyncPreview.Action, Long> counts) {
        return shown(listed, action, counts).stream().map(Listed::entry).toList();
    }

    private static long count(Map<SyncPreview.Action, Long> counts, SyncPreview.Action action) {
        return counts.getOrDefault(action, 0L);
    }

    /** What sync --delete removes, by the run's own rule. */
    private static JavaRDD<Entry> deleted(SparkPhaseRunner runner, JavaRDD<DirectoryBlock> destination, JavaRDD<DirectoryBlock> source,
                                          byte[] destinationRoot) {
        RddSpread.Job job = new RddSpread.Job(runner);
        Spread<CopyJob.Extraneous> extraneous = CopyJob.extraneous(job.spread(destination), job.spread(source), destinationRoot);
        return ((RddSpread<Entry>) extraneous.filter(x -> x.mountPoint() == null).mapShares(CopyJob::entries)).rdd();
    }
}

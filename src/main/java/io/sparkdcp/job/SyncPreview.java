package io.sparkdcp.job;

import io.sparkdcp.copy.ItemLog;
import io.sparkdcp.copy.options.CopyModes;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.copy.decision.Decision;
import io.sparkdcp.copy.decision.Protection;
import io.sparkdcp.copy.options.RootFile;
import io.sparkdcp.itemlog.TaskItemLog;
import io.sparkdcp.plan.DeletionPlanner;
import io.sparkdcp.plan.Planner;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.FsXattr;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.roots.DeletionScope;
import io.sparkdcp.walk.Entry;
import io.sparkdcp.walk.Listing;
import io.sparkdcp.walk.TreeWalker;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What {@code copy --dry-run} and {@code sync --dry-run} show: the actions a sync would take, judged from the two walks by
 * the engine's own {@link Decision}, with nothing written. Symlink targets are read and compared
 * as the run does; xattrs and project IDs of files, and with --contents the bytes, are compared
 * only by a real run.
 *
 * <p>Judged on the driver from both listings here, or on the executors from the two walks grouped by
 * directory ({@code spark.ExecutorSyncPreview}), by the same per-entry steps: {@link #decide},
 * {@link #changesName}, {@link #action}. The lists are in path order (deletions deepest first, then
 * in path order); the executors' hold at most {@link io.sparkdcp.copy.CopyCounts#MAX_FAILURES_KEPT}
 * entries each, {@code notShown} counts the rest.
 *
 * @param refused         entries the run would leave as they are and fail (a directory against a non-directory)
 * @param keptNewer       files --update would leave as they are, their destination being newer
 * @param deletionRefused why nothing would be deleted, or null
 * @param notShown        entries of each list beyond what it holds
 */
public record SyncPreview(List<Entry> copy, List<Entry> fixMetadata, List<Entry> delete, List<Failure> refused,
                          long unchanged, List<Entry> keptNewer, List<Failure> sourceErrors, String deletionRefused,
                          NotShown notShown) {

    /** Entries judged but not in the lists (a dry run on the executors sends the driver the first of each kind). */
    public record NotShown(long copy, long fixMetadata, long delete, long refused, long keptNewer, long sourceErrors) {
        public static final NotShown NONE = new NotShown(0, 0, 0, 0, 0, 0);

        public boolean any() { return !equals(NONE); }
    }

    /** Which list of the preview a source entry's decision puts it in. */
    public enum Action { COPY, FIX_METADATA, UNCHANGED, KEPT_NEWER, REFUSED }

    /** The refusal of an entry beneath a directory the run refuses: it is never made, so the run fails its entries too (ENOTDIR). */
    public static final String BENEATH_REFUSED = "beneath a directory the destination has as a non-directory";

    /** Deletions deepest first (a directory after its entries), then in path order. */
    public static final Comparator<Entry> DELETION_ORDER = (Comparator<Entry> & java.io.Serializable) (a, b) -> {
        int byDepth = Integer.compare(PathBytes.depth(b.path()), PathBytes.depth(a.path()));
        return byDepth != 0 ? byDepth : PathBytes.compare(a.path(), b.path());
    };

    /** The lists' order: by path. */
    public static final Comparator<Entry> PATH_ORDER = (Comparator<Entry> & java.io.Serializable) (a, b) -> PathBytes.compare(a.path(), b.path());

    /** With the options' item log, one part of the lines the run would log (the driver's: a dry run has no tasks). */
    public static SyncPreview of(JobOptions options, boolean delete, boolean destinationExists) {
        try (TaskItemLog lines = TaskItemLog.forDriver(options.copy())) {
            SyncPreview preview = of(options, delete, destinationExists, lines.log());
            lines.commit();
            return preview;
        }
    }

    private static SyncPreview of(JobOptions options, boolean delete, boolean destinationExists, ItemLog items) {
        boolean projects = options.copy().readsFsXattr();
        Listing source = SourceListing.of(options, null, line -> {});
        RootFile file = options.copy().rootFile();
        Listing destination = !destinationExists ? new Listing(List.of(), List.of())
                : file != null ? TreeWalker.walkOne(options.copy().destinationRoot(), file.destinationName(), file.destinationName(), false)
                : new TreeWalker(options.walkThreads(), projects, options.listing().destinationFilter()).walk(options.copy().destinationRoot());
        String refused = null;
        List<Entry> deletions = List.of();
        if (file != null) {
            // a file as SRC: nothing beside its one name is deleted, as in the run
        } else if (delete && !source.complete()) {
            refused = deletionRefused(source.errors().size());
        } else if (delete) {
            deletions = DeletionScope.withoutMounts(DeletionPlanner.deepestFirst(source, destination),
                    options.copy().destinationRoot(), spared -> {}).stream().flatMap(List::stream).sorted(DELETION_ORDER).toList();
        }
        Map<ByteBuffer, Entry> dstByPath = new HashMap<>();
        for (Entry d : destination.entries()) dstByPath.put(ByteBuffer.wrap(d.path()), d);
        Map<ByteBuffer, Entry> here = new HashMap<>();
        for (Entry e : source.entries()) here.put(ByteBuffer.wrap(e.path()), e);
        // What the run may not delete (protected at DST), and the directories that hold it, stay.
        List<Failure> keptDeletions = new ArrayList<>();
        Set<ByteBuffer> holders = new HashSet<>();
        List<Entry> deleted = new ArrayList<>();
        for (Entry d : deletions) {
            String reason = deletionRefusal(d, dstByPath.get(ByteBuffer.wrap(d.parent())), here.get(ByteBuffer.wrap(d.parent())),
                    here.get(ByteBuffer.wrap(d.path())), options.copy().flags());
            if (reason == null && holders.contains(ByteBuffer.wrap(d.path()))) reason = Protection.NOT_EMPTIED;
            if (reason == null) {
                deleted.add(d);
                continue;
            }
            keptDeletions.add(refusal(d, reason));
            items.record(ItemLog.Action.FAILED, d.type(), d.path(), keptDeletions.get(keptDeletions.size() - 1));
            holders.addAll(ancestors(d.path()));
        }
        // The copy runs after the deletions: it meets what they leave.
        Map<ByteBuffer, Entry> there = afterDeletions(destination.entries(), deleted);
        try (Targets targets = destinationExists ? new Targets(options.copy()) : null) {
            SyncPreview preview = judge(source, here, there, deleted, keptDeletions, options.copy(), Posix.geteuid(), targets, refused, items);
            preview.log(items);
            return preview;
        }
    }

    /** The lines that {@link #judge} does not tell as it decides. */
    private void log(ItemLog items) {
        for (Entry d : delete) items.record(ItemLog.Action.DELETED, d.type(), d.path(), null);
        sourceErrors.forEach(items::jobFailure);
        if (deletionRefused != null) items.jobFailure(new Failure(CopyJob.WHOLE_TREE, "delete", "", "deletion refused: " + deletionRefused));
    }

    private static SyncPreview judge(Listing source, Map<ByteBuffer, Entry> here, Map<ByteBuffer, Entry> there, List<Entry> deletions,
                                     List<Failure> keptDeletions, CopyOptions options, int euid, Targets targets,
                                     String deletionRefused, ItemLog items) {
        CopyModes modes = options.modes();
        List<Entry> entries = source.entries();
        List<Decision> decisions = new ArrayList<>(entries.size());
        Set<ByteBuffer> touched = new HashSet<>(); // directories whose entries the run creates, replaces or deletes
        for (Entry d : deletions) touched.add(ByteBuffer.wrap(d.parent()));
        for (Entry e : entries) decisions.add(decide(e, there.get(ByteBuffer.wrap(e.path())), options, euid, targets));
        // Further names of a linked file, once the first name's decision is known: linked to its copy.
        Map<List<Long>, Integer> firstNames = firstNames(entries);
        for (int i = 0; i < entries.size(); i++) {
            List<Long> inode = linkedInode(entries.get(i));
            Integer first = inode == null ? null : firstNames.get(inode);
            if (first != null && first != i)
                decisions.set(i, decideLink(there.get(ByteBuffer.wrap(entries.get(i).path())),
                        there.get(ByteBuffer.wrap(entries.get(first).path())), decisions.get(first)));
        }
        // A name made or replaced in a directory protected at DST is refused; elsewhere it changes the directory.
        for (int i = 0; i < entries.size(); i++) {
            Entry e = entries.get(i);
            if (!changesName(decisions.get(i)) || e.isRoot()) continue;
            String parent = parentRefusal(there.get(ByteBuffer.wrap(e.parent())), here.get(ByteBuffer.wrap(e.parent())), options.flags());
            if (parent != null) decisions.set(i, new Decision(Decision.Kind.REFUSE, parent));
            else touched.add(ByteBuffer.wrap(e.parent()));
        }
        // A refused directory is never made, so the run fails everything beneath it too (ENOTDIR).
        Set<ByteBuffer> refusedDirectories = new HashSet<>();
        for (int i = 0; i < entries.size(); i++)
            if (neverMade(entries.get(i), decisions.get(i))) refusedDirectories.add(ByteBuffer.wrap(entries.get(i).path()));
        List<Entry> copy = new ArrayList<>();
        List<Entry> fix = new ArrayList<>();
        List<Failure> refused = new ArrayList<>();
        long unchanged = 0;
        List<Entry> keptNewer = new ArrayList<>();
        Set<List<Long>> inodesSeen = new HashSet<>(); // the run copies a file's first name, and links the others to it
        for (int i = 0; i < entries.size(); i++) {
            Entry e = entries.get(i);
            Decision decision = decisions.get(i);
            if (!refusedDirectories.isEmpty() && beneath(e.path(), refusedDirectories)) {
                Failure f = refusal(e, BENEATH_REFUSED);
                refused.add(f);
                items.record(ItemLog.Action.FAILED, e.type(), e.path(), f);
                continue;
            }
            if (e.type() == FileType.DIRECTORY && touched.contains(ByteBuffer.wrap(e.path())))
                decision = afterChildrenChanged(decision, e, there.get(ByteBuffer.wrap(e.path())), options);
            switch (action(decision, modes.sync())) {
                case COPY -> copy.add(e);
                case FIX_METADATA -> fix.add(e);
                case UNCHANGED -> unchanged++;
                case KEPT_NEWER -> keptNewer.add(e);
                case REFUSED -> refused.add(refusal(e, decision.reason()));
            }
            boolean later = e.type() == FileType.FILE && e.stat().nlink() > 1 && !inodesSeen.add(List.of(e.stat().dev(), e.stat().ino()));
            ItemLog.Action action = logAction(decision.kind(), modes.sync());
            items.record(later && action == ItemLog.Action.COPIED ? ItemLog.Action.LINKED : action, e.type(), e.path(),
                    decision.kind() == Decision.Kind.REFUSE ? refused.get(refused.size() - 1) : null);
        }
        refused = inPathOrder(refused, keptDeletions);
        return new SyncPreview(copy, fix, deletions, refused, unchanged, keptNewer, source.errors(), deletionRefused, NotShown.NONE);
    }

    /** A directory the run refuses to make (a type clash, or its directory protected): what lies beneath it fails too. */
    public static boolean neverMade(Entry e, Decision d) {
        return d.kind() == Decision.Kind.REFUSE && e.type() == FileType.DIRECTORY && !e.isRoot() && !d.protectedAtDestination();
    }

    /** A kept directory whose entries the run changes: its times are set back, unless it is protected at DST. */
    public static Decision afterChildrenChanged(Decision d, Entry e, Entry there, CopyOptions options) {
        Decision changed = d.afterChildrenChanged();
        return there == null ? changed : changed.protecting(there.stat().locks(), e.stat().locks(), options.flags());
    }

    /**
     * Why the run leaves d, an entry sync --delete would remove, as it is ({@link Protection}), or null:
     * its directory's locks first, then its own, which only a type change may clear (the source's entry
     * there of another type, carrying them).
     *
     * @param dstParent the destination's directory d is named in, or null; srcParent the source's entry at that path, or null
     * @param srcSame   the source's entry at d's path, or null
     */
    public static String deletionRefusal(Entry d, Entry dstParent, Entry srcParent, Entry srcSame, boolean flags) {
        String parent = parentRefusal(dstParent, srcParent, flags);
        if (parent != null) return parent;
        int sourceLocks = srcSame != null && srcSame.type() != d.type() ? srcSame.stat().locks() : 0;
        int locks = Protection.locks(d.stat().locks(), sourceLocks, flags);
        return locks == 0 ? null : Protection.reason(locks);
    }

    /** Why the run makes or removes no name in a destination directory (dstParent, null: none), or null. */
    public static String parentRefusal(Entry dstParent, Entry srcParent, boolean flags) {
        if (dstParent == null || dstParent.stat().locks() == 0) return null;
        int sourceLocks = srcParent != null && srcParent.type() == FileType.DIRECTORY ? srcParent.stat().locks() : 0;
        int locks = Protection.locks(dstParent.stat().locks(), sourceLocks, flags);
        return locks == 0 ? null : Protection.parentReason(locks);
    }

    /** The paths of every directory above path (not path itself, nor the root). */
    public static List<ByteBuffer> ancestors(byte[] path) {
        List<ByteBuffer> out = new ArrayList<>();
        for (int i = path.length - 1; i > 0; i--) if (path[i] == '/') out.add(ByteBuffer.wrap(Arrays.copyOf(path, i)));
        return out;
    }

    /** Both lists of refusals (each in path order) as one in path order. */
    private static List<Failure> inPathOrder(List<Failure> a, List<Failure> b) {
        if (b.isEmpty()) return a;
        List<Failure> all = new ArrayList<>(a);
        all.addAll(b);
        all.sort(Comparator.comparing(Failure::path, (x, y) -> PathBytes.compare(PathBytes.of(x), PathBytes.of(y))));
        return all;
    }

    /**
     * The destination's entries by path once the deletions are done, as the copy meets them: a file that
     * lost names to them has that many links fewer (which {@link Decision#of} weighs against the source's).
     */
    static Map<ByteBuffer, Entry> afterDeletions(List<Entry> destination, List<Entry> deletions) {
        Map<ByteBuffer, Entry> there = new HashMap<>();
        for (Entry d : destination) there.put(ByteBuffer.wrap(d.path()), d);
        for (Entry d : deletions) there.remove(ByteBuffer.wrap(d.path()));
        withNamesLost(there, namesLost(deletions));
        return there;
    }

    /** How many names each linked file loses to the deletions, by (dev, ino). */
    public static Map<List<Long>, Integer> namesLost(Iterable<Entry> deletions) {
        Map<List<Long>, Integer> lost = new HashMap<>();
        for (Entry d : deletions) if (linkedInode(d) != null) lost.merge(linkedInode(d), 1, Integer::sum);
        return lost;
    }

    /** The entries left by the deletions, each with the links it has after them. */
    public static void withNamesLost(Map<ByteBuffer, Entry> there, Map<List<Long>, Integer> namesLost) {
        if (namesLost.isEmpty()) return;
        there.replaceAll((path, d) -> {
            Integer lost = linkedInode(d) == null ? null : namesLost.get(linkedInode(d));
            return lost == null ? d : new Entry(d.path(), d.stat().withNlink(d.stat().nlink() - lost), d.project());
        });
    }

    /** (dev, ino) of a file with several names, or null. */
    public static List<Long> linkedInode(Entry e) {
        return e.type() == FileType.FILE && e.stat().nlink() > 1 ? List.of(e.stat().dev(), e.stat().ino()) : null;
    }

    /**
     * For each inode with several names in the listing, the index of its first name in listing order: the
     * run copies that one and links the others to it ({@link io.sparkdcp.plan.Planner}).
     */
    private static Map<List<Long>, Integer> firstNames(List<Entry> entries) {
        Map<List<Long>, Integer> first = new HashMap<>();
        Map<List<Long>, Integer> names = new HashMap<>();
        for (int i = 0; i < entries.size(); i++) {
            List<Long> inode = linkedInode(entries.get(i));
            if (inode == null) continue;
            names.merge(inode, 1, Integer::sum);
            final int at = i;
            first.merge(inode, i, (a, b) -> Planner.LISTING_ORDER.compare(entries.get(a), entries.get(at)) <= 0 ? a : b);
        }
        first.keySet().removeIf(inode -> names.get(inode) < 2); // one name here: copied as a file of its own
        return first;
    }

    /**
     * A further name of a linked file, as the run links it ({@link Decision#ofLink}): to the copy of its first
     * name, which is the inode the destination has there only if the first name's decision keeps it.
     */
    public static Decision decideLink(Entry destination, Entry firstNameThere, Decision firstName) {
        Entry target = firstName.keeps() ? firstNameThere : null;
        return Decision.ofLink(destination == null ? null : destination.stat(), target == null ? null : target.stat());
    }

    /** Why a dry run would delete nothing. */
    public static String deletionRefused(long sourceErrors) {
        return "the walk of the source reported " + sourceErrors + " error(s)";
    }

    /**
     * One source entry against the destination's entry at its path (null: none), as the run decides it:
     * the stats, then a kept symlink's target, then project ID and flags.
     *
     * @param targets the two roots, to read symlink targets; null when the destination does not exist
     */
    public static Decision decide(Entry e, Entry d, CopyOptions options, int euid, Targets targets) {
        Decision decision = Decision.of(e.stat(), d == null ? null : d.stat(), options.modes(), euid, 0, options.flags());
        if (decision.keeps() && e.type() == FileType.SYMLINK)
            decision = decision.afterComparingData(targets.same(e.path()));
        if (d != null) decision = decision.afterComparingExtras(!sameFsXattr(e.project(), d.project(), options))
                .protecting(d.stat().locks(), e.stat().locks(), options.flags());
        return decision;
    }

    /** The list a decision puts its entry in. A copy gives a directory whose metadata differs all of it, and counts it copied. */
    public static Action action(Decision decision, boolean sync) {
        return switch (decision.kind()) {
            case CREATE, REPLACE -> Action.COPY;
            case FIX_METADATA -> sync ? Action.FIX_METADATA : Action.COPY;
            case SKIP -> Action.UNCHANGED;
            case KEEP_NEWER -> Action.KEPT_NEWER;
            case REFUSE -> Action.REFUSED;
        };
    }

    /** A refused entry as the dry run lists it. */
    public static Failure refusal(Entry e, String reason) {
        return new Failure(e.isRoot() ? "." : e.display(), "sync", "", reason);
    }

    /** What the run's log says of an entry so decided. */
    private static ItemLog.Action logAction(Decision.Kind kind, boolean sync) {
        return switch (kind) {
            case CREATE, REPLACE -> ItemLog.Action.COPIED;
            case FIX_METADATA -> sync ? ItemLog.Action.FIXED : ItemLog.Action.COPIED;
            case SKIP -> ItemLog.Action.SKIPPED;
            case KEEP_NEWER -> ItemLog.Action.KEPT_NEWER;
            case REFUSE -> ItemLog.Action.FAILED;
        };
    }

    /** True when one of the path's ancestors (not the path itself) is in {@code directories}. */
    public static boolean beneath(byte[] path, Set<ByteBuffer> directories) {
        for (int i = path.length - 1; i > 0; i--)
            if (path[i] == '/' && directories.contains(ByteBuffer.wrap(path, 0, i).slice())) return true;
        return false;
    }

    /** True when the run makes a name in the entry's parent directory (which moves that directory's times). */
    public static boolean changesName(Decision d) {
        return d.kind() == Decision.Kind.CREATE || d.kind() == Decision.Kind.REPLACE;
    }

    /** Project ID and kept flags as the run compares them (locks are in the stat); hint sizes only a run reads. */
    private static boolean sameFsXattr(FsXattr a, FsXattr b, CopyOptions copy) {
        if (a == null || b == null) return true; // only directories carry it in a listing
        if (copy.projectIds() && (a.projid() != b.projid() || a.projInherit() != b.projInherit())) return false;
        return !copy.flags() || (a.keptFlags() & ~FsXattr.LOCKS) == (b.keptFlags() & ~FsXattr.LOCKS);
    }

    /** Reads the targets of symlinks at the same path in both trees, beneath their roots. */
    public static final class Targets implements AutoCloseable {
        private final Fd source;
        private final Fd destination;
        private final CopyOptions options;

        public Targets(CopyOptions options) {
            this.options = options;
            source = Posix.open(options.sourceRoot(), Linux.O_RDONLY | Linux.O_DIRECTORY);
            try {
                destination = Posix.open(options.destinationRoot(), Linux.O_RDONLY | Linux.O_DIRECTORY);
            } catch (RuntimeException e) {
                source.close();
                throw e;
            }
        }

        public boolean same(byte[] path) {
            return Arrays.equals(target(source, options.sourcePath(path)), target(destination, path));
        }

        private static byte[] target(Fd root, byte[] path) {
            byte[] parent = PathBytes.parent(path);
            if (parent.length == 0) return Posix.readlinkat(root, PathBytes.name(path));
            try (Fd dir = Posix.openBeneath(root, parent, Linux.O_RDONLY | Linux.O_DIRECTORY | Linux.O_NOFOLLOW)) {
                return Posix.readlinkat(dir, PathBytes.name(path));
            }
        }

        @Override
        public void close() {
            try (source; destination) { // closes both, even when one of them throws
            }
        }
    }
}

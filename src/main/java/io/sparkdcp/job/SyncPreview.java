package io.sparkdcp.job;

import io.sparkdcp.copy.ItemLog;
import io.sparkdcp.copy.KeptEntryReader;
import io.sparkdcp.copy.compare.Difference;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.copy.decision.Protection;
import io.sparkdcp.copy.options.CopyModes;
import io.sparkdcp.copy.decision.Decision;
import io.sparkdcp.copy.options.RootFile;
import io.sparkdcp.itemlog.TaskItemLog;
import io.sparkdcp.job.exec.Spread;
import io.sparkdcp.plan.DeletionPlanner;
import io.sparkdcp.plan.Planner;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.roots.DeletionScope;
import io.sparkdcp.walk.Entry;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What {@code copy --dry-run} and {@code sync --dry-run} show: the actions a sync would take, judged from the two walks by
 * the engine's own {@link Decision}, then for an entry it would keep from what the run reads of it
 * ({@link KeptEntryReader}: symlink targets; in sync the xattrs, ACLs, project ID and flags of files and
 * directories, and with --contents the bytes), with nothing written on either side. An entry to fix carries
 * the kinds the run sets, as its item log names them.
 *
 * <p>Judged by {@link PreviewJob} wherever the listing lives, by these per-entry rules: {@link #byStat}, {@link #afterReading},
 * {@link #changesName}, {@link #action}. The lists are in path order (deletions deepest first, then
 * in path order) and hold at most {@link PreviewJob#SHOWN} entries each; {@code notShown} counts the rest.
 *
 * @param refused         entries the run would leave as they are and fail (a directory against a non-directory)
 * @param keptNewer       files --update would leave as they are, their destination being newer
 * @param deletionRefused why nothing would be deleted, or null
 * @param notShown        entries of each list beyond what it holds
 */
public record SyncPreview(List<Entry> copy, List<Fix> fixMetadata, List<Entry> delete, List<Failure> refused,
                          long unchanged, List<Entry> keptNewer, List<Failure> sourceErrors, String deletionRefused,
                          NotShown notShown) {

    /** An entry whose metadata alone the run sets, and the kinds it sets (as compare and the item log name them). */
    public record Fix(Entry entry, Set<Difference.Kind> kinds) implements java.io.Serializable {}

    /** Entries judged but not in the lists (the driver receives the first of each kind). */
    public record NotShown(long copy, long fixMetadata, long delete, long refused, long keptNewer, long sourceErrors) {
        public static final NotShown NONE = new NotShown(0, 0, 0, 0, 0, 0);
    }

    /** Which list of the preview a source entry's decision puts it in. */
    public enum Action { COPY, FIX_METADATA, UNCHANGED, KEPT_NEWER, REFUSED }

    /** The refusal of an entry beneath a directory the run refuses: it is never made, so the run fails its entries too (ENOTDIR). */
    static final String BENEATH_REFUSED = "beneath a directory the destination has as a non-directory";

    /** Deletions deepest first (a directory after its entries), then in path order. */
    static final Spread.Order<Entry> DELETION_ORDER = (a, b) -> {
        int byDepth = Integer.compare(PathBytes.depth(b.path()), PathBytes.depth(a.path()));
        return byDepth != 0 ? byDepth : PathBytes.compare(a.path(), b.path());
    };

    /** The lists' order: by path. */
    static final Spread.Order<Entry> PATH_ORDER = (a, b) -> PathBytes.compare(a.path(), b.path());

    /** A directory the run refuses to make (a type clash, or its directory protected): what lies beneath it fails too. */
    static boolean neverMade(Entry e, Decision d) {
        return d.kind() == Decision.Kind.REFUSE && e.type() == FileType.DIRECTORY && !e.isRoot() && !d.protectedAtDestination();
    }

    /** A kept directory whose entries the run changes: its times are set back, unless it is protected at DST. */
    static Decision afterChildrenChanged(Decision d, Entry e, Entry there, CopyOptions options) {
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
    static String deletionRefusal(Entry d, Entry dstParent, Entry srcParent, Entry srcSame, boolean flags) {
        String parent = parentRefusal(dstParent, srcParent, flags);
        if (parent != null) return parent;
        int sourceLocks = srcSame != null && srcSame.type() != d.type() ? srcSame.stat().locks() : 0;
        int locks = Protection.locks(d.stat().locks(), sourceLocks, flags);
        return locks == 0 ? null : Protection.reason(locks);
    }

    /** Why the run makes or removes no name in a destination directory (dstParent, null: none), or null. */
    static String parentRefusal(Entry dstParent, Entry srcParent, boolean flags) {
        if (dstParent == null || dstParent.stat().locks() == 0) return null;
        int sourceLocks = srcParent != null && srcParent.type() == FileType.DIRECTORY ? srcParent.stat().locks() : 0;
        int locks = Protection.locks(dstParent.stat().locks(), sourceLocks, flags);
        return locks == 0 ? null : Protection.parentReason(locks);
    }

    /** The paths of every directory above path (not path itself, nor the root). */
    static List<ByteBuffer> ancestors(byte[] path) {
        List<ByteBuffer> out = new ArrayList<>();
        for (int i = path.length - 1; i > 0; i--) if (path[i] == '/') out.add(ByteBuffer.wrap(Arrays.copyOf(path, i)));
        return out;
    }

    /** The entries left by the deletions, each with the links it has after them. */
    static void withNamesLost(Map<ByteBuffer, Entry> there, Map<List<Long>, Integer> namesLost) {
        if (namesLost.isEmpty()) return;
        there.replaceAll((path, d) -> {
            Integer lost = linkedInode(d) == null ? null : namesLost.get(linkedInode(d));
            return lost == null ? d : new Entry(d.path(), d.stat().withNlink(d.stat().nlink() - lost), d.project());
        });
    }

    /** (dev, ino) of a file with several names, or null. */
    static List<Long> linkedInode(Entry e) {
        return e.type() == FileType.FILE && e.stat().nlink() > 1 ? List.of(e.stat().dev(), e.stat().ino()) : null;
    }

    /**
     * A further name of a linked file, as the run links it ({@link Decision#ofLink}): to the copy of its first
     * name, which is the inode the destination has there only if the first name's decision keeps it.
     */
    static Decision decideLink(Entry destination, Entry firstNameThere, Decision firstName) {
        Entry target = firstName.keeps() ? firstNameThere : null;
        return Decision.ofLink(destination == null ? null : destination.stat(), target == null ? null : target.stat());
    }

    /** Why a dry run would delete nothing. */
    static String deletionRefused(long sourceErrors) {
        return "the walk of the source reported " + sourceErrors + " error(s)";
    }

    /** One source entry against the destination's entry at its path (null: none), as the run decides it from the two stats. */
    static Decision byStat(Entry e, Entry d, CopyOptions options, int euid) {
        return Decision.of(e.stat(), d == null ? null : d.stat(), options.modes(), euid, 0, options.flags());
    }

    /**
     * An entry both trees have that the stats would keep, once what the run reads of it is read ({@link KeptEntryReader}:
     * a symlink's target; in sync, with --contents, a file's bytes, and the xattrs, ACLs, project ID and flags of
     * files and directories), then the locks at DST; with the kinds of metadata the run would set.
     */
    static KeptEntryReader.Judged afterReading(Entry e, Entry d, Decision byStat, CopyOptions options, KeptEntryReader reader) {
        KeptEntryReader.Judged read = reader.judge(e, d, byStat);
        Decision decision = read.decision().protecting(d.stat().locks(), e.stat().locks(), options.flags());
        return new KeptEntryReader.Judged(decision, decision.kind() == Decision.Kind.FIX_METADATA ? read.kinds() : Set.of());
    }

    /** The list a decision puts its entry in. A copy gives a directory whose metadata differs all of it, and counts it copied. */
    static Action action(Decision decision, boolean sync) {
        return switch (decision.kind()) {
            case CREATE, REPLACE -> Action.COPY;
            case FIX_METADATA -> sync ? Action.FIX_METADATA : Action.COPY;
            case SKIP -> Action.UNCHANGED;
            case KEEP_NEWER -> Action.KEPT_NEWER;
            case REFUSE -> Action.REFUSED;
        };
    }

    /** A refused entry as the dry run lists it. */
    static Failure refusal(Entry e, String reason) {
        return new Failure(e.isRoot() ? "." : e.display(), "sync", "", reason);
    }

    /** What the run's log says of an entry so decided. */
    static ItemLog.Action logAction(Decision.Kind kind, boolean sync) {
        return switch (kind) {
            case CREATE, REPLACE -> ItemLog.Action.COPIED;
            case FIX_METADATA -> sync ? ItemLog.Action.FIXED : ItemLog.Action.COPIED;
            case SKIP -> ItemLog.Action.SKIPPED;
            case KEEP_NEWER -> ItemLog.Action.KEPT_NEWER;
            case REFUSE -> ItemLog.Action.FAILED;
        };
    }

    /** True when one of the path's ancestors (not the path itself) is in {@code directories}. */
    static boolean beneath(byte[] path, Set<ByteBuffer> directories) {
        for (int i = path.length - 1; i > 0; i--)
            if (path[i] == '/' && directories.contains(ByteBuffer.wrap(path, 0, i).slice())) return true;
        return false;
    }

    /** True when the run makes a name in the entry's parent directory (which moves that directory's times). */
    static boolean changesName(Decision d) {
        return d.kind() == Decision.Kind.CREATE || d.kind() == Decision.Kind.REPLACE;
    }
}

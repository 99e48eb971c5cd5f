package io.sparkdcp.copy.decision;

import io.sparkdcp.copy.options.CopyModes;
import io.sparkdcp.posix.Errno;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.PosixException;
import io.sparkdcp.posix.Stat;

/**
 * What the copy does with one source entry, given what the destination has at its path: the one
 * rule, used by every copier (files, large files, symlinks, special files, directories,
 * hard links) and by sync's dry run, so the dry run says what the run does.
 *
 * <p>{@link #of} judges from the two stats alone. Two things only the real run can read refine it,
 * again here: {@link #afterComparingData} (a symlink's target; with --contents, a file's bytes)
 * and {@link #afterComparingExtras} (xattrs and project ID, which sync fixes too).
 *
 * @param reason why it is refused (REFUSE), or the notice of a skip the user must see (a device
 *               as non-root); null otherwise
 */
public record Decision(Kind kind, String reason) implements java.io.Serializable {

    public enum Kind {
        /** Nothing has that name at the destination: create the entry. */
        CREATE,
        /** The destination already holds what the copy would give it. */
        SKIP,
        /** Sync: the destination's data is right; set the metadata that differs. */
        FIX_METADATA,
        /** Remove what is there and create the entry anew. */
        REPLACE,
        /** Leave what is there and fail the entry: a directory is never replaced, nor replaces. */
        REFUSE,
        /** --update: the destination's file is newer than the source's; left as it is, counted apart. */
        KEEP_NEWER
    }

    public static final Decision CREATE = new Decision(Kind.CREATE, null);
    public static final Decision SKIP = new Decision(Kind.SKIP, null);
    public static final Decision FIX_METADATA = new Decision(Kind.FIX_METADATA, null);
    public static final Decision REPLACE = new Decision(Kind.REPLACE, null);
    public static final Decision KEEP_NEWER = new Decision(Kind.KEEP_NEWER, null);

    static final String DEVICE_AS_USER = "a device file can only be created by root; skipped";

    /**
     * @param source      the source entry's stat
     * @param destination the destination's lstat at the same path, or null when it has nothing there
     * @param euid        who copies: a user cannot give files away, so such owner differences do not count
     */
    public static Decision of(Stat source, Stat destination, CopyModes modes, int euid) {
        return of(source, destination, modes, euid, 0);
    }

    /** As above, with mtimes equal to within windowNanos (a destination that keeps coarser times). */
    public static Decision of(Stat source, Stat destination, CopyModes modes, int euid, long windowNanos) {
        return of(source, destination, modes, euid, windowNanos, true);
    }

    /**
     * As above; flags: inode flags are carried, so immutable and append-only (which a stat shows)
     * count as metadata. An entry locked at DST that this would change is refused unless its source
     * carries the same locks ({@link #protecting}). (A directory locked at the destination whose entries
     * must change is unlocked for them by the run under the same rule; that moves its mtime, so it is
     * fixed as any directory whose entries changed.)
     */
    public static Decision of(Stat source, Stat destination, CopyModes modes, int euid, long windowNanos, boolean flags) {
        Decision d = judge(source, destination, modes, euid, windowNanos, flags);
        return destination == null ? d : d.protecting(destination.locks(), source.locks(), flags);
    }

    private static Decision judge(Stat source, Stat destination, CopyModes modes, int euid, long windowNanos, boolean flags) {
        FileType type = source.type();
        if ((type == FileType.CHAR_DEVICE || type == FileType.BLOCK_DEVICE) && euid != 0)
            return new Decision(Kind.SKIP, DEVICE_AS_USER);
        if (destination == null) return CREATE;
        if (type == FileType.DIRECTORY) {
            if (destination.type() != FileType.DIRECTORY) return refuse("the destination has a "
                    + destination.type().name().toLowerCase().replace('_', ' ') + " where the source has a directory; left as it is");
            return sameMetadata(source, destination, euid, windowNanos, flags) ? SKIP : FIX_METADATA;
        }
        // rsync --update: files only, and only a file at DST; a different type is always replaced. A file
        // under its final name is always complete (Temporaries), so a newer one is the user's.
        if (modes.update() && type == FileType.FILE && destination.type() == FileType.FILE && newer(destination, source, windowNanos))
            return KEEP_NEWER;
        if (sharedMoreThanSource(source, destination)) return REPLACE;
        boolean sameData = sameDataByStat(source, destination, modes, windowNanos);
        // Sync keeps data that is right and fixes the rest; a copy keeps only what is identical.
        if (sameData && modes.sync()) return sameMetadata(source, destination, euid, windowNanos, flags) ? SKIP : FIX_METADATA;
        if (sameData && sameMetadata(source, destination, euid, windowNanos, flags)) return SKIP;
        if (destination.type() == FileType.DIRECTORY)
            return refuse("the destination has a directory where the source has a " + type.name().toLowerCase());
        return REPLACE;
    }

    /**
     * A further name of a hard-linked file, given what the destination has at that name and at the
     * copy of the first name: kept when both are one inode.
     */
    public static Decision ofLink(Stat destination, Stat target) {
        if (destination == null) return CREATE;
        if (target != null && destination.ino() == target.ino() && destination.dev() == target.dev()) return SKIP;
        if (destination.type() == FileType.DIRECTORY) return refuse("the destination has a directory where the source has a file");
        return REPLACE;
    }

    /**
     * A destination file with more names than the source's inode has: kept, it would stay one inode with
     * names SRC keeps apart (a pair SRC split, a name SRC linked elsewhere). Replaced, it gets an inode of
     * its own, to which the run links its source's other names. Names of SRC's inode outside SRC count
     * too, so a destination linked beyond what the source is linked to is never kept.
     */
    static boolean sharedMoreThanSource(Stat source, Stat destination) {
        return source.type() == FileType.FILE && destination.type() == FileType.FILE && destination.nlink() > source.nlink();
    }

    /** Whether the destination's times count as the source's. The one place that compares them. */
    static boolean sameTimes(Stat source, Stat destination, long windowNanos) {
        return source.sameMtime(destination, windowNanos);
    }

    /** True when a's mtime is later than b's, and not the same time by {@link #sameTimes}. */
    private static boolean newer(Stat a, Stat b, long windowNanos) {
        boolean later = a.mtimeSec() > b.mtimeSec() || (a.mtimeSec() == b.mtimeSec() && a.mtimeNsec() > b.mtimeNsec());
        return later && !sameTimes(b, a, windowNanos);
    }

    /** Same type and, as far as a stat can tell, the same data: size and times, target length, device number. */
    private static boolean sameDataByStat(Stat source, Stat destination, CopyModes modes, long windowNanos) {
        if (source.type() != destination.type()) return false;
        return switch (source.type()) {
            case FILE -> source.size() == destination.size() && (comparesContents(modes) || sameTimes(source, destination, windowNanos));
            case SYMLINK -> source.size() == destination.size(); // the target itself: afterComparingData
            case FIFO, SOCKET, CHAR_DEVICE, BLOCK_DEVICE -> source.rdev() == destination.rdev();
            case DIRECTORY -> true;
        };
    }

    /** Owner (as far as euid may set it), mode (symlinks have none), times, and with flags immutable and append-only. */
    private static boolean sameMetadata(Stat source, Stat destination, int euid, long windowNanos, boolean flags) {
        if (!sameTimes(source, destination, windowNanos)) return false;
        if (flags && source.locks() != destination.locks()) return false;
        if (source.type() != FileType.SYMLINK && source.permissions() != destination.permissions()) return false;
        return !Ownership.differs(source, destination.uid(), destination.gid(), euid);
    }

    /** Sync with --contents: a file's bytes, not its times, tell whether its data is the same. */
    private static boolean comparesContents(CopyModes modes) {
        return modes.sync() && modes.compareContents();
    }

    private static Decision refuse(String reason) {
        return new Decision(Kind.REFUSE, reason);
    }

    /**
     * This decision, refused when it would change an entry locked at DST whose source does not carry
     * the same locks ({@link Protection}). Judged by {@link #of}; again after a step that makes an
     * entry kept one to change (a directory whose entries changed).
     */
    public Decision protecting(int destinationLocks, int sourceLocks, boolean flags) {
        if (kind != Kind.FIX_METADATA && kind != Kind.REPLACE) return this;
        int locks = Protection.locks(destinationLocks, sourceLocks, flags);
        return locks == 0 ? this : refuse(Protection.reason(locks));
    }

    /** A refusal that leaves an entry protected at DST as it is ({@link Protection}); not a type clash. */
    public boolean protectedAtDestination() {
        return kind == Kind.REFUSE && Protection.isProtection(reason);
    }

    /** True when the entry there stays (skipped, its metadata fixed, or newer under --update). */
    public boolean keeps() {
        return kind == Kind.SKIP || kind == Kind.FIX_METADATA || kind == Kind.KEEP_NEWER;
    }

    /**
     * True when an entry this decision keeps must first show it holds the same data, which only a
     * real run reads: a symlink's target, and with sync --contents a file's bytes.
     */
    public static boolean comparesData(Stat source, CopyModes modes) {
        return source.type() == FileType.SYMLINK || (source.type() == FileType.FILE && comparesContents(modes));
    }

    /**
     * True when the entry there is immutable or append-only (destination: its stat, or its struct's
     * lock bits) and this decision changes it: the locks are cleared first ({@link Protection}: only
     * when its source carries them), and the source's set again after everything else. Nothing else
     * may write to such an entry, nor remove it.
     */
    public boolean unlocksFirst(int destinationLocks) {
        return destinationLocks != 0 && (kind == Kind.FIX_METADATA || kind == Kind.REPLACE);
    }

    /** The decision once the data was compared: an entry kept with other data is replaced. */
    public Decision afterComparingData(boolean sameData) {
        return keeps() && kind != Kind.KEEP_NEWER && !sameData ? REPLACE : this;
    }

    /** Sync, once xattrs and project ID were compared too: any of them differing is metadata to fix. */
    public Decision afterComparingExtras(boolean extrasDiffer) {
        return kind == Kind.SKIP && extrasDiffer && reason == null ? FIX_METADATA : this;
    }

    /**
     * Sync, for a directory kept at the destination whose entries the run creates, replaces or
     * deletes: that moves its times, which its finish then sets back.
     */
    public Decision afterChildrenChanged() {
        return afterComparingExtras(true);
    }

    /** The failure of a refused entry. */
    public PosixException refusal(Stat source, byte[] path) {
        if (protectedAtDestination()) return Protection.refusal("change", path, reason);
        return source.type() == FileType.DIRECTORY
                ? new PosixException("mkdirat", Errno.EEXIST, path, reason)
                : new PosixException("replace", Errno.EISDIR, path, reason);
    }
}

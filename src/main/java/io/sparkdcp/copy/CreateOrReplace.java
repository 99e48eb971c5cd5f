package io.sparkdcp.copy;

import io.sparkdcp.posix.Errno;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.PosixException;
import io.sparkdcp.posix.Stat;
import io.sparkdcp.walk.Entry;

import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The one create-or-replace sequence of every entry that is not a directory: create at once (a fresh
 * copy learns all it needs from that); when the name is taken, stat what is there and let the
 * {@link Decision} say: keep it, refuse, or remove it and create again.
 */
final class CreateOrReplace {
    /**
     * What is done with an entry the decision keeps: compare what a stat cannot tell, set the
     * metadata that differs, count it, and return the final decision (REPLACE when the data differs).
     */
    @FunctionalInterface
    interface Keeper {
        Decision keep(Entry e, Fd dir, Stat existing, Decision d, CopyCounts counts);
    }

    /** Creates a regular file as name in dir with mode, exclusively; null when the name is taken. */
    @FunctionalInterface
    interface FileCreate {
        Fd create(Fd dir, byte[] name, int mode);
    }

    /** Opens what is at a file's name, to hold its lock and look at it again, without following a symlink or blocking. */
    private static final int OPEN_EXISTING = Linux.O_RDONLY | Linux.O_NOFOLLOW | Linux.O_NONBLOCK;
    /** Rounds of create, look and replace before a name other attempts keep taking counts as a failure. */
    private static final int ROUNDS = 10;

    private final CopyContext ctx;
    private final AttemptLocks locks;

    CreateOrReplace(CopyContext ctx, AttemptLocks locks) {
        this.ctx = ctx;
        this.locks = locks;
    }

    /**
     * The sequence for a regular file written under its final name ({@link AttemptLocks}): the file this
     * creates is returned (a retry's holding its lock until it is closed); an existing regular file is
     * replaced only under its lock, after a second look at it through the locked descriptor.
     *
     * @param create makes the file with mode (it runs once more when dir was locked: {@link CopyContext#unlockingParent})
     * @return the new file, or null when the file there was kept
     */
    Fd runFile(Entry e, Fd dir, int mode, FileCreate create, Keeper keeper, CopyCounts counts) {
        boolean namesFixed = namesFixedIn(e);
        for (int round = 0; round < ROUNDS; round++) {
            Fd made = namesFixed ? null : createUnlocking(dir, e.name(), mode, create);
            if (made != null) {
                if (locks.holdCreated(made)) return made;
                ctx.timedClose(made); // another attempt holds it already, to replace it: look again
                continue;
            }
            Stat existing = ctx.statDestination(dir, e.name());
            if (existing == null && namesFixed) ctx.requireNamesChangeable(e.parent(), e.path(), "openat");
            if (existing == null) continue;
            Decision d = settle(e, dir, existing, ctx.decide(e, existing), keeper, counts);
            if (d.keeps()) return null;
            if (namesFixed) ctx.requireNamesChangeable(e.parent(), e.path(), "replace");
            if (existing.type() != FileType.FILE) { // not one an attempt writes: removed as any entry
                unlockToReplace(e, dir, existing, d);
                unlink(dir, e.name());
            } else if (keptUnderLock(e, dir, existing, d, keeper, counts)) {
                return null;
            }
        }
        throw Posix.failure("openat", Errno.EBUSY, e.path());
    }

    /**
     * The regular file at e's name, seen as seen and to be replaced as d says: waits for its lock and
     * looks at it again, so that no other attempt is writing it or has finished it since. Returns true
     * when it is kept after all, false when it was removed under the lock or is gone by then.
     */
    private boolean keptUnderLock(Entry e, Fd dir, Stat seen, Decision d, Keeper keeper, CopyCounts counts) {
        Fd there = ctx.steps.time(Step.OPEN_DST, () -> Posix.openatUnless(Errno.ENOENT, dir, e.name(), OPEN_EXISTING, 0));
        if (there == null) return false;
        try {
            locks.hold(there);
            Stat now = ctx.steps.time(Step.STAT_DST, () -> Posix.fstat(there));
            if (!stillNamed(dir, e.name(), now)) return false; // replaced while we waited: look at the name again
            if (!unchanged(seen, now)) d = settle(e, dir, now, ctx.decide(e, now), keeper, counts);
            if (d.keeps()) return true;
            if (d.unlocksFirst(now.locks())) ctx.unlock(there, e);
            unlink(dir, e.name());
            return false;
        } finally {
            ctx.timedClose(there);
        }
    }

    /** {@link CopyContext#unlockingParent} without a lambda to capture the arguments: it runs for every file. */
    /**
     * True when e's destination directory is protected ({@link Protection}): nothing is created or
     * removed there, so an entry already there is only kept, and anything else refused.
     */
    private boolean namesFixedIn(Entry e) {
        return !e.isRoot() && ctx.parentState(e.parent()).protectedLocks() != 0;
    }

    private Fd createUnlocking(Fd dir, byte[] name, int mode, FileCreate create) {
        try {
            return create.create(dir, name, mode);
        } catch (PosixException ex) {
            if (!ctx.unlockedAfter(ex, dir)) throw ex;
            return create.create(dir, name, mode);
        }
    }

    /**
     * Whether the open file (stat now) is still the one at name. Under its lock no attempt removes it
     * from there, and files written in place are never renamed: one that still has its only link has
     * it there; one with others (a hard link) is looked up.
     */
    private boolean stillNamed(Fd dir, byte[] name, Stat now) {
        if (now.nlink() <= 1) return now.nlink() == 1;
        Stat atName = ctx.statDestination(dir, name);
        return atName != null && atName.ino() == now.ino() && atName.dev() == now.dev();
    }

    /** The same inode, not written or changed since: the decision made on the first look stands. */
    private static boolean unchanged(Stat seen, Stat now) {
        return seen.ino() == now.ino() && seen.ctimeSec() == now.ctimeSec() && seen.ctimeNsec() == now.ctimeNsec();
    }

    /**
     * Removes a file this attempt created under its final name and could not fill, unless another
     * attempt replaced it meanwhile: only under its lock, and only while it still has a name.
     */
    void removeIncomplete(Fd dir, byte[] name, Fd file) {
        try {
            if (locks.tryHold(file) && stillNamed(dir, name, Posix.fstat(file))) Posix.unlinkat(dir, name, false);
        } catch (PosixException ignored) {
            // the failure that brought us here is the one to report
        }
    }

    private void unlink(Fd dir, byte[] name) {
        ctx.steps.time(Step.UNLINK, () -> ctx.unlockingParent(dir, () -> Posix.unlinkat(dir, name, false)));
    }

    /**
     * @param call   the create call, for the failure when the name is taken again after the removal
     * @param create makes the entry, or returns null when the name is taken
     * @return what create made, or null when the entry there was kept
     */
    <T> T run(Entry e, Fd dir, String call, Supplier<T> create, Keeper keeper, CopyCounts counts) {
        return run(e, dir, call, create, existing -> ctx.decide(e, existing), keeper, counts);
    }

    /** As {@link #run(Entry, Fd, String, Supplier, Keeper, CopyCounts)}, with another rule (hard links). */
    <T> T run(Entry e, Fd dir, String call, Supplier<T> create, Function<Stat, Decision> decide, Keeper keeper,
              CopyCounts counts) {
        boolean namesFixed = namesFixedIn(e);
        T made = namesFixed ? null : ctx.unlockingParent(dir, create);
        if (made != null) return made;
        Stat existing = ctx.statDestination(dir, e.name());
        if (existing != null) {
            Decision d = settle(e, dir, existing, decide.apply(existing), keeper, counts);
            if (d.keeps()) return null;
            if (namesFixed) ctx.requireNamesChangeable(e.parent(), e.path(), "replace");
            unlockToReplace(e, dir, existing, d);
            unlink(dir, e.name());
        }
        if (namesFixed) ctx.requireNamesChangeable(e.parent(), e.path(), call);
        made = ctx.unlockingParent(dir, create);
        if (made == null) throw Posix.failure(call, Errno.EEXIST, e.path());
        return made;
    }

    /**
     * An immutable or append-only entry to be replaced can be neither removed nor renamed over: cleared
     * first, when e's source carries those locks ({@link Protection}); else refused.
     */
    void unlockToReplace(Entry e, Fd dir, Stat existing, Decision d) {
        if (d.unlocksFirst(existing.locks())) ctx.unlock(dir, e.name(), e);
    }

    /** Applies a decision on an existing entry: kept (by the keeper), refused (thrown), or to be replaced. */
    Decision settle(Entry e, Fd dir, Stat existing, Decision d, Keeper keeper, CopyCounts counts) {
        if (d.keeps()) d = keeper.keep(e, dir, existing, d, counts);
        if (d.kind() == Decision.Kind.REFUSE) throw d.refusal(e.stat(), e.path());
        return d;
    }
}

package io.sparkdcp.copy;

import io.sparkdcp.copy.decision.Decision;
import io.sparkdcp.copy.decision.Protection;
import io.sparkdcp.copy.steps.Step;
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
 * The create-or-replace sequence of every entry that is not a directory: symlinks, special files and
 * hard links are created at once under a destination this run made (a fresh copy learns all it needs
 * from that), else their name is looked at first ({@link CopyContext#looksFirst}); when the name is taken,
 * the {@link Decision} on what is there says: keep it, refuse, or remove it and create
 * again. A regular file is never written under its final name ({@link Temporaries}): the file it
 * replaces is {@link #claim claimed} and renamed over.
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

    /** What came of taking a file to be replaced: kept after all, gone (look at the name again), or to be replaced. */
    enum Outcome { KEPT, LOOK_AGAIN, REPLACE }

    /**
     * @param held the file to be replaced, its lock held until the caller closes it after its rename; null when
     *             there is none to hold (not a regular file)
     */
    record Claim(Outcome outcome, Fd held) {
        static final Claim KEPT = new Claim(Outcome.KEPT, null);
        static final Claim LOOK_AGAIN = new Claim(Outcome.LOOK_AGAIN, null);
    }

    /** Opens what is at a file's name, to hold its lock and look at it again, without following a symlink or blocking. */
    private static final int OPEN_EXISTING = Linux.O_RDONLY | Linux.O_NOFOLLOW | Linux.O_NONBLOCK;

    private final CopyContext ctx;
    private final AttemptLocks locks;

    CreateOrReplace(CopyContext ctx, AttemptLocks locks) {
        this.ctx = ctx;
        this.locks = locks;
    }

    /**
     * The entry at e's name, seen as seen, that d replaces by a rename over it. A regular file is held
     * under its lock ({@link AttemptLocks}) from here to the rename, and looked at again through the
     * locked descriptor: no two attempts replace one file at once, and one that another attempt has
     * replaced or changed since is decided again (a complete copy is kept). Anything else is unlocked
     * as it must be and replaced.
     */
    Claim claim(Entry e, Fd dir, Stat seen, Decision d, Keeper keeper, CopyCounts counts) {
        if (seen.type() != FileType.FILE) {
            unlockToReplace(e, dir, seen, d);
            return new Claim(Outcome.REPLACE, null);
        }
        Fd there = ctx.steps.time(Step.OPEN_DST, () -> Posix.openatUnless(Errno.ENOENT, dir, e.name(), OPEN_EXISTING, 0));
        if (there == null) return Claim.LOOK_AGAIN;
        boolean claimed = false;
        try {
            locks.hold(there);
            Stat now = ctx.steps.time(Step.STAT_DST, () -> Posix.fstat(there));
            if (!stillNamed(dir, e.name(), now)) return Claim.LOOK_AGAIN; // replaced while we waited
            if (!unchanged(seen, now)) d = settle(e, dir, now, ctx.decide(e, now), keeper, counts);
            if (d.keeps()) return Claim.KEPT;
            if (d.unlocksFirst(now.locks())) ctx.unlocker.unlock(there, e);
            claimed = true;
            return new Claim(Outcome.REPLACE, there);
        } finally {
            if (!claimed) ctx.timedClose(there);
        }
    }

    /**
     * True when e's destination directory is protected ({@link Protection}): nothing is created or
     * removed there, so an entry already there is only kept, and anything else refused.
     */
    private boolean namesFixedIn(Entry e) {
        return !e.isRoot() && ctx.parentState(e.parent()).protectedLocks() != 0;
    }

    /**
     * Whether the open file (stat now) is still the one at name. Under its lock no attempt replaces it:
     * one that still has its only link has it there; one with others (a hard link) is looked up.
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

    void unlink(Fd dir, byte[] name) {
        ctx.steps.time(Step.UNLINK, () -> ctx.unlocker.unlockingParent(dir, () -> Posix.unlinkat(dir, name, false)));
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
        // Where names may be taken, the name is looked at first: one already right costs no create that fails.
        if (!ctx.looksFirst() && !namesFixedIn(e)) {
            T made = ctx.unlocker.unlockingParent(dir, create);
            if (made != null) return made;
        }
        Stat existing = ctx.statDestination(dir, e.name());
        if (existing != null) {
            Decision d = settle(e, dir, existing, decide.apply(existing), keeper, counts);
            if (d.keeps()) return null;
            if (namesFixedIn(e)) ctx.unlocker.requireNamesChangeable(e.parent(), e.path(), "replace");
            unlockToReplace(e, dir, existing, d);
            unlink(dir, e.name());
        }
        if (namesFixedIn(e)) ctx.unlocker.requireNamesChangeable(e.parent(), e.path(), call);
        T made = ctx.unlocker.unlockingParent(dir, create);
        if (made == null) throw Posix.failure(call, Errno.EEXIST, e.path());
        return made;
    }

    /**
     * An immutable or append-only entry to be replaced can be neither removed nor renamed over: cleared
     * first, when e's source carries those locks ({@link Protection}); else refused.
     */
    void unlockToReplace(Entry e, Fd dir, Stat existing, Decision d) {
        if (d.unlocksFirst(existing.locks())) ctx.unlocker.unlock(dir, e.name(), e);
    }

    /** Applies a decision on an existing entry: kept (by the keeper), refused (thrown), or to be replaced. */
    Decision settle(Entry e, Fd dir, Stat existing, Decision d, Keeper keeper, CopyCounts counts) {
        if (d.keeps()) d = keeper.keep(e, dir, existing, d, counts);
        if (d.kind() == Decision.Kind.REFUSE) throw d.refusal(e.stat(), e.path());
        return d;
    }
}

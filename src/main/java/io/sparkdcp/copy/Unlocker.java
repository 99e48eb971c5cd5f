package io.sparkdcp.copy;

import io.sparkdcp.copy.decision.Decision;
import io.sparkdcp.copy.decision.Protection;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.copy.steps.Step;
import io.sparkdcp.copy.steps.StepRecorder;
import io.sparkdcp.posix.Errno;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.FsXattr;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.PosixException;
import io.sparkdcp.walk.Entry;

import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The immutable and append-only flags (the locks) of destination entries: cleared where the source
 * entry carries the same locks ({@link Protection}), refused everywhere else. Not the run's lock on
 * DST (io.sparkdcp.roots.DestinationLock) nor the flock between a task's attempts ({@link AttemptLocks}).
 * One engine's, like its {@link CopyContext}.
 */
final class Unlocker {
    private final CopyOptions options;
    private final StepRecorder steps;
    private final DirectoryCache source;
    private final DirectoryCache destination;
    /** What a destination directory gives new entries, its protected locks among them ({@link CopyContext#parentState}). */
    private final Function<byte[], ParentState> parents;

    Unlocker(CopyOptions options, StepRecorder steps, DirectoryCache source, DirectoryCache destination,
             Function<byte[], ParentState> parents) {
        this.options = options;
        this.steps = steps;
        this.source = source;
        this.destination = destination;
        this.parents = parents;
    }

    /**
     * Clears immutable and append-only on an existing destination entry, by name in its open parent,
     * so it can be changed or removed ({@link Decision#unlocksFirst}); returns what it had. Refused
     * (EPERM) when source, the entry copied there, does not carry those locks ({@link Protection}).
     */
    FsXattr unlock(Fd dir, byte[] name, Entry source) {
        return unlock(dir, name, source.stat().locks(), source.path());
    }

    /** As above, the locks it may clear given (sourceLocks), for the destination entry at path. */
    FsXattr unlock(Fd dir, byte[] name, int sourceLocks, byte[] path) {
        try (Fd fd = steps.time(Step.OPEN_DST, () -> Posix.openat(dir, name, Linux.O_RDONLY | Linux.O_NOFOLLOW | Linux.O_NONBLOCK, 0))) {
            return unlock(fd, sourceLocks, path);
        }
    }

    /** As above, on the entry's open descriptor. */
    FsXattr unlock(Fd fd, Entry source) {
        return unlock(fd, source.stat().locks(), source.path());
    }

    private FsXattr unlock(Fd fd, int sourceLocks, byte[] path) {
        FsXattr current = steps.time(Step.IOCTL_GET, () -> Posix.getFsXattr(fd));
        int locked = Protection.locks(current.locks(), sourceLocks, options.flags());
        if (locked != 0) throw Protection.refusal("unlock", path, Protection.reason(locked));
        if (current.locks() != 0) steps.time(Step.IOCTL_SET, () -> Posix.setFsXattr(fd, current.unlocked()));
        return current.unlocked();
    }

    /**
     * Runs a call that makes or removes a name in dir. An immutable or append-only directory refuses
     * it (EPERM): then, if its source directory carries the same locks ({@link Protection}), dir is
     * unlocked and the call runs once more; else the call is refused as protected. The directory's
     * finish gives it its source's locks again; the call moved its mtime, so it is finished.
     * Another thread of the task may have unlocked dir between the refusal and the look at its flags
     * (two names made or removed at once in one locked directory): the call runs once more then too.
     */
    <T> T unlockingParent(Fd dir, Supplier<T> call) {
        try {
            return call.get();
        } catch (PosixException ex) {
            if (!unlockedAfter(ex, dir)) throw ex;
            return call.get();
        }
    }

    /** Whether a call that failed with ex in dir runs once more ({@link #unlockingParent}), dir now unlocked. */
    boolean unlockedAfter(PosixException ex, Fd dir) {
        return ex.errno() == Errno.EPERM && options.flags() && unlockedNow(dir, ex);
    }

    void unlockingParent(Fd dir, Runnable call) {
        unlockingParent(dir, () -> {
            call.run();
            return null;
        });
    }

    /** True when dir is unlocked now: it was locked and this cleared it, or another thread did. */
    private boolean unlockedNow(Fd dir, PosixException refused) {
        FsXattr current;
        try {
            current = steps.time(Step.IOCTL_GET, () -> Posix.getFsXattr(dir));
        } catch (PosixException e) {
            return false;
        }
        if (current.locks() == 0) return true;
        byte[] relPath = destination.relPath(dir);
        int locked = protectedDirectoryLocks(relPath, current.locks());
        if (locked != 0) throw Protection.refusal(refused.call(), refused.path(), Protection.parentReason(locked));
        steps.time(Step.IOCTL_SET, () -> Posix.setFsXattr(dir, current.unlocked()));
        return true;
    }

    /**
     * The locks of the destination directory at relPath (locks: what it has) that its source directory
     * does not carry: names are made or removed there only when this is 0. A source that has no
     * directory there, or one we may not open, carries none.
     */
    int protectedDirectoryLocks(byte[] relPath, int locks) {
        int sourceLocks;
        try {
            sourceLocks = steps.time(Step.STAT_SRC, () -> Posix.fstat(source.get(relPath))).locks();
        } catch (PosixException e) {
            sourceLocks = 0;
        }
        return Protection.locks(locks, sourceLocks, options.flags());
    }

    /** Refuses a name made or removed in the destination directory at relPath when it is protected there. */
    void requireNamesChangeable(byte[] dirPath, byte[] path, String call) {
        int locked = parents.apply(dirPath).protectedLocks();
        if (locked != 0) throw Protection.refusal(call, path, Protection.parentReason(locked));
    }
}

package io.sparkdcp.copy;

import io.sparkdcp.copy.steps.Step;
import io.sparkdcp.copy.steps.StepRecorder;
import io.sparkdcp.posix.Errno;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.PosixException;

import java.util.concurrent.TimeUnit;

/**
 * Two attempts of one task can run at once: Spark's retry beside an earlier attempt whose executor was
 * cut off from its killed worker. A new file gets its name only when complete ({@link Temporaries}), so
 * no lock guards it; an existing file is replaced only by the holder of its exclusive {@code flock},
 * held until the rename over it ({@link CreateOrReplace#claim}), which looks at it again first. So an
 * earlier attempt never replaces a file a retry has finished, whatever it saw before; the kernel lets
 * go of a dead attempt's lock. A file copied in chunks is held shared by its chunk tasks and alone by
 * its finish. Where the file system has no flock (Lustre mounted {@code noflock}) files are replaced
 * unguarded: still only by complete copies.
 */
final class AttemptLocks {
    static final String NOTICE_OP = "flock";
    /** How long a replacement waits for the attempt writing the file: far longer than one file below the chunk size takes. */
    private static final long WAIT_NANOS = TimeUnit.MINUTES.toNanos(10);
    private static final long LONGEST_PAUSE_MILLIS = 50;

    private final StepRecorder steps;
    private boolean unsupported;
    /** The first file the file system refused a flock on, for the one notice; null when none or given. */
    private byte[] refusedAt;

    AttemptLocks(StepRecorder steps) {
        this.steps = steps;
    }

    /** Waits until this descriptor holds the lock of an existing file: its writer, if any, has closed it. */
    void hold(Fd file) {
        await(file, true);
    }

    /**
     * Waits for a shared lock of a file copied in chunks: chunk tasks write it side by side, while its
     * finish, which sets its times, holds it alone ({@link #hold}).
     */
    void holdShared(Fd file) {
        await(file, false);
    }

    private void await(Fd file, boolean exclusive) {
        if (unsupported) return;
        steps.time(Step.LOCK, () -> {
            long deadline = System.nanoTime() + WAIT_NANOS;
            long pause = 1;
            while (!tryLock(file, exclusive)) {
                if (System.nanoTime() > deadline)
                    throw new PosixException("flock", Errno.EBUSY, file.path(), "another attempt of this copy has been writing it for "
                            + TimeUnit.NANOSECONDS.toSeconds(WAIT_NANOS) + " s");
                sleep(pause, file);
                pause = Math.min(pause * 2, LONGEST_PAUSE_MILLIS);
            }
        });
    }

    private boolean tryLock(Fd file, boolean exclusive) {
        try {
            return exclusive ? Posix.tryLockExclusive(file) : Posix.tryLockShared(file);
        } catch (PosixException e) {
            if (e.errno() != Errno.ENOSYS && e.errno() != Errno.EOPNOTSUPP && e.errno() != Errno.ENOLCK) throw e;
            unsupported = true;
            refusedAt = e.path();
            return true;
        }
    }

    /** The notice, once, that DST has no flock and its files are not guarded against a stale attempt. */
    void drainInto(CopyCounts counts) {
        if (refusedAt == null) return;
        counts.addNoticeOnce(Failure.of(refusedAt, NOTICE_OP,
                "DST has no flock: a stale task attempt (its executor cut off from its worker) is not kept from replacing files here"));
        refusedAt = null;
    }

    private static void sleep(long millis, Fd file) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PosixException("flock", Errno.EINTR, file.path(), "interrupted while another attempt of this copy writes it");
        }
    }
}

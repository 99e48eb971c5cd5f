package io.sparkdcp.copy;

import io.sparkdcp.posix.Errno;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.PosixException;
import io.sparkdcp.posix.Stat;

/**
 * A copy by a user other than root cannot give an entry another user's owner (chown needs
 * CAP_CHOWN): such an entry's copy is the user's, as with {@code cp -a}. Said once for the job, at
 * the first entry it concerns, or with --strict fails each such entry, as flags DST cannot hold do
 * ({@link FlagRefusals}). One engine's.
 */
final class OwnersNotKept {
    /** The op of the notice, by which a job's counts keep one. */
    static final String NOTICE_OP = "keep owner";

    private final int euid;
    private final boolean strict;
    private boolean noticed;
    /** The first entry concerned, for the one notice; null when none or given. */
    private byte[] firstAt;

    OwnersNotKept(int euid, boolean strict) {
        this.euid = euid;
        this.strict = strict;
    }

    /**
     * Checks that source's owner is what its copy at relPath has or will have.
     *
     * @param copyUid the owner of the copy before any chown: this user for a new entry
     * @throws PosixException with --strict, when the owner cannot be kept
     */
    void check(byte[] relPath, Stat source, int copyUid) {
        if (euid == 0 || source.uid() == copyUid) return;
        if (strict)
            throw new PosixException("fchown", Errno.EPERM, relPath,
                    "owner " + source.uid() + " cannot be kept: this run is not root (uid " + euid + ", --strict)");
        if (noticed) return;
        noticed = true;
        firstAt = relPath;
    }

    /** The notice, once, when an owner was not kept. */
    void drainInto(CopyCounts counts) {
        if (firstAt == null) return;
        counts.addNoticeOnce(Failure.of(firstAt, NOTICE_OP, "this run is not root (uid " + euid + "): entries owned by "
                + "other users do not keep their owner and group, here and on every other such entry (new copies are uid "
                + euid + "'s; run as root to keep them, or --strict to fail them)"));
        firstAt = null;
    }
}

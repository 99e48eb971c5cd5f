package io.sparkdcp.copy.decision;

import io.sparkdcp.posix.Errno;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.PosixException;

/**
 * An entry immutable or append-only at DST was locked by someone who meant it. The copy deletes,
 * replaces, unlocks, or makes and removes names in such an entry only to give it its source's own
 * state: when the source's entry at the same path carries the same locks and flags are carried.
 * Otherwise the change is refused before anything of it is done (rsync's unlink fails with EPERM).
 */
public final class Protection {
    private static final String PROTECTED = "protected at DST";
    private static final String IN_PROTECTED = "in a directory " + PROTECTED;

    /** Why sync --delete leaves a directory: an entry in it was not deleted (protected at DST, or failed). */
    public static final String NOT_EMPTIED = "not empty: an entry in it was not deleted; left as it is";

    private Protection() {}

    /**
     * The destination's locks its source does not carry: non-zero means protected.
     *
     * @param sourceLocks the source entry's locks at the same path; 0 when it has none there
     * @param flags       whether flags are carried: without, the copy replicates no lock
     */
    public static int locks(int destinationLocks, int sourceLocks, boolean flags) {
        return destinationLocks & ~(flags ? sourceLocks : 0);
    }

    /** Why an entry locked at DST is left as it is: {@code protected at DST (immutable)}. */
    public static String reason(int locks) {
        return PROTECTED + " (" + names(locks) + ")";
    }

    /** Why no name is made or removed in a directory locked at DST. */
    public static String parentReason(int locks) {
        return IN_PROTECTED + " (" + names(locks) + ")";
    }

    /** Whether a refusal's reason is one of these (the entry is there and stays as it is). */
    public static boolean isProtection(String reason) {
        return reason != null && (reason.startsWith(PROTECTED) || reason.startsWith(IN_PROTECTED));
    }

    /**
     * Whether the kernel refuses (EPERM) a change of names in a directory with these locks, so that the run
     * clears them first and sets them again at its finish: any change in an immutable one; in an append-only
     * one, only removing a name (a deletion, or a replacement), since it takes new names.
     */
    public static boolean unlockedForNames(int locks, boolean removesNames) {
        return (locks & Linux.FS_XFLAG_IMMUTABLE) != 0 || (removesNames && (locks & Linux.FS_XFLAG_APPEND) != 0);
    }

    public static PosixException refusal(String call, byte[] path, String reason) {
        return new PosixException(call, Errno.EPERM, path, reason);
    }

    private static String names(int locks) {
        boolean immutable = (locks & Linux.FS_XFLAG_IMMUTABLE) != 0;
        boolean append = (locks & Linux.FS_XFLAG_APPEND) != 0;
        return immutable && append ? "immutable, append-only" : immutable ? "immutable" : "append-only";
    }
}

package io.sparkdcp.copy.decision;

import io.sparkdcp.posix.Stat;

/** Which owner differences a copy running as euid can and will fix. */
public final class Ownership {
    private Ownership() {}

    /** Whether a chown would change anything we are allowed to change. */
    public static boolean differs(Stat src, int uid, int gid, int euid) {
        if (euid == 0) return src.uid() != uid || src.gid() != gid;
        // Unprivileged: only the group of our own files can change, like rsync and cp -a as a user.
        return src.uid() == euid && src.gid() != gid;
    }
}

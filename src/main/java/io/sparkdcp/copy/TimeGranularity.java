package io.sparkdcp.copy;

import io.sparkdcp.posix.DirectoryIdentity;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.PosixException;
import io.sparkdcp.posix.Stat;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How finely the destination keeps times, found by giving an unnamed file (O_TMPFILE: nothing
 * is left behind, even by a killed run) a time with 999,999,999 ns and reading back what stayed.
 * ext4 with 128-byte inodes, many NFS servers and FAT keep less than the source's nanoseconds,
 * so without this a copy there never looks identical and every re-run copies everything again.
 */
public final class TimeGranularity {
    private static final byte[] DOT = PathBytes.of(".");
    private static final long PROBE_SEC = 1_000_000_001L; // odd: FAT's 2 s steps show
    private static final int PROBE_NSEC = 999_999_999;
    private static final long SECOND = 1_000_000_000L;
    /**
     * Probed once per destination root and JVM, not per task: each probe is a file made at DST, on Lustre a
     * metadata-server create. Keyed by the mount's unique ID as well as the root's identity: an unmount frees a
     * loop device, an inode number and a mount ID that another file system can come back with, all three together.
     */
    private static final Map<Probed, Long> PROBED = new ConcurrentHashMap<>();

    private record Probed(DirectoryIdentity root, long uniqueMountId) {}

    private TimeGranularity() {}

    /**
     * As {@link #windowNanos(Fd)}, probed once for the destination root pinned as root. Probed each time when root is
     * null (not pinned) or the kernel has no unique mount IDs (before Linux 6.8): then nothing tells a remounted file
     * system from the one probed, and the callers keep the answer for one task.
     */
    public static long windowNanos(DirectoryIdentity root, Fd dir) {
        long mount = root == null ? -1 : Posix.uniqueMountId(dir);
        if (mount == -1) return windowNanos(dir);
        return PROBED.computeIfAbsent(new Probed(root, mount), r -> windowNanos(dir));
    }

    /**
     * The window within which two mtimes count as the same at dir's file system: 0 for exact
     * (nanoseconds kept, or nothing to probe with: then times compare exactly, as before).
     */
    static long windowNanos(Fd dir) {
        Fd probe;
        try {
            probe = Posix.openat(dir, DOT, Linux.O_TMPFILE | Linux.O_WRONLY, 0600);
        } catch (PosixException e) {
            return 0; // no unnamed files here (or no write permission): compare exactly
        }
        try (probe) {
            Posix.futimens(probe, PROBE_SEC, PROBE_NSEC, PROBE_SEC, PROBE_NSEC);
            Stat kept = Posix.fstat(probe);
            long lost = Math.abs((PROBE_SEC - kept.mtimeSec()) * SECOND + (PROBE_NSEC - kept.mtimeNsec()));
            if (lost == 0) return 0;
            if (lost >= SECOND) return 2 * SECOND;
            long window = 1;
            while (window <= lost) window *= 10; // 999,999,999 lost: 1 s; 999: 1 µs
            return window;
        }
    }
}

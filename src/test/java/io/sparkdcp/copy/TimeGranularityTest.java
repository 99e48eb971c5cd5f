package io.sparkdcp.copy;

import io.sparkdcp.posix.DirectoryIdentity;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.testing.LoopMount;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * The granularity probed for a destination root is kept for the JVM, so it must not outlive the file system it was
 * probed on. After an unmount, another file system can come back with the same loop device, root inode and mount ID;
 * here that identity is handed over directly, the other file system mounted beside the first.
 */
class TimeGranularityTest {
    private static final long SECOND = 1_000_000_000L;
    private static LoopMount nanoseconds;
    private static LoopMount wholeSeconds;

    @BeforeAll
    static void mount() {
        LoopMount.requireRootAndXfs();
        nanoseconds = LoopMount.create("granularity-ns", LoopMount.MIN_SIZE_MIB);
        wholeSeconds = LoopMount.createExt4("granularity-s", LoopMount.MIN_SIZE_MIB, "-I", "128");
    }

    @AfterAll
    static void unmount() {
        if (wholeSeconds != null) wholeSeconds.close();
        if (nanoseconds != null) nanoseconds.close();
    }

    @Test
    void aProbeIsNotHandedToAnotherFileSystemWithTheSameIdentity() {
        try (Fd exact = Posix.open(nanoseconds.dirBytes(), Linux.O_RDONLY | Linux.O_DIRECTORY);
             Fd coarse = Posix.open(wholeSeconds.dirBytes(), Linux.O_RDONLY | Linux.O_DIRECTORY)) {
            DirectoryIdentity first = Posix.identity(exact);
            assertEquals(0, TimeGranularity.windowNanos(first, exact), "XFS keeps nanoseconds");
            assertEquals(SECOND, TimeGranularity.windowNanos(first, coarse),
                    "ext4 with 128-byte inodes keeps whole seconds, whatever identity it came back with");
            assertEquals(0, TimeGranularity.windowNanos(first, exact), "the first file system's probe still holds");
        }
    }

    @Test
    void theKernelGivesMountsUniqueIds() {
        try (Fd a = Posix.open(nanoseconds.dirBytes(), Linux.O_RDONLY | Linux.O_DIRECTORY);
             Fd b = Posix.open(wholeSeconds.dirBytes(), Linux.O_RDONLY | Linux.O_DIRECTORY)) {
            long first = Posix.uniqueMountId(a);
            // Before Linux 6.8 there is none and every task probes for itself: safe, one create more per task.
            if (first == -1) return;
            assertNotEquals(first, Posix.uniqueMountId(b));
            assertEquals(first, Posix.uniqueMountId(a));
        }
    }
}

package io.sparkdcp.bench.latencyfs;

import java.util.concurrent.locks.LockSupport;

/** Waits at least the given time without spinning: many requests wait at once on few cores. */
final class Delay {
    private Delay() {}

    static void pause(long nanos) {
        if (nanos <= 0) return;
        long deadline = System.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = deadline - System.nanoTime()) LockSupport.parkNanos(left);
    }
}

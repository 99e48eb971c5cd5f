package io.sparkdcp.copy.throttle;

import java.util.concurrent.locks.LockSupport;

/**
 * A rate as a clock of slots: each acquisition of n units gets the next n/rate seconds after the one
 * before it, or from now when the clock has fallen behind, and waits for its slot to begin. Time left
 * unused is not saved up, so no burst exceeds one acquisition, and the threads of a JVM that share
 * one clock share its rate. Thread-safe.
 */
public final class RateLimiter {
    private double perSecond;
    private long next = System.nanoTime();

    RateLimiter(double perSecond) {
        setRate(perSecond);
    }

    /** A new stage may divide the job's rate differently; slots already given keep their length. */
    synchronized void setRate(double units) {
        if (!(units > 0)) throw new IllegalArgumentException("a rate must be positive, not " + units);
        this.perSecond = units;
    }

    public synchronized double rate() {
        return perSecond;
    }

    /** Waits until n units may be used; an interrupted thread stops waiting (and stays interrupted). */
    public void acquire(long n) {
        long start;
        synchronized (this) {
            long now = System.nanoTime();
            start = next - now > 0 ? next : now;
            next = start + (long) Math.ceil(n * 1e9 / perSecond);
        }
        for (long wait = start - System.nanoTime(); wait > 0; wait = start - System.nanoTime()) {
            LockSupport.parkNanos(this, wait);
            if (Thread.currentThread().isInterrupted()) return;
        }
    }
}

package io.sparkdcp.job.exec;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** Runs calls on a pool of threads and returns their results in order; the first failure fails the lot. */
public final class ParallelCalls {
    private ParallelCalls() {}

    public static <T> List<T> run(String what, int threads, List<Callable<T>> calls) {
        if (calls.isEmpty()) return List.of();
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(threads, calls.size()));
        try {
            List<Future<T>> futures = new ArrayList<>();
            for (Callable<T> call : calls) futures.add(pool.submit(call));
            return results(what, futures);
        } finally {
            pool.shutdownNow();
        }
    }

    /** The results of calls already submitted, in order, once all are done; the first failure fails the lot. */
    static <T> List<T> results(String what, List<Future<T>> futures) {
        try {
            List<T> results = new ArrayList<>();
            for (Future<T> f : futures) results.add(f.get());
            return results;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(what + " interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(what + " failed: " + e.getCause(), e.getCause());
        }
    }
}

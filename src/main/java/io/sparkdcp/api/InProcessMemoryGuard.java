package io.sparkdcp.api;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Runs a job on threads in this JVM (no Spark) so that running out of memory on any of them throws
 * {@link DriverOutOfMemoryException}, as {@link DriverMemoryGuard} does on Spark: an error on a task's
 * thread comes back wrapped in the phase's failure, one on a thread of nobody's is only seen by the watch.
 */
final class InProcessMemoryGuard {
    private InProcessMemoryGuard() {}

    static <T> T run(Supplier<T> job) {
        AtomicReference<OutOfMemoryError> outOfMemory = new AtomicReference<>();
        try (OutOfMemoryWatch.Registration watch = OutOfMemoryWatch.watch(e -> outOfMemory.compareAndSet(null, e))) {
            T result;
            try {
                result = job.get();
            } catch (RuntimeException | OutOfMemoryError e) {
                OutOfMemoryError cause = outOfMemory.get() != null ? outOfMemory.get() : OutOfMemoryWatch.find(e);
                if (cause != null) throw new DriverOutOfMemoryException(cause);
                throw e;
            }
            // Whatever thread it struck, the result cannot be trusted whole.
            if (outOfMemory.get() != null) throw new DriverOutOfMemoryException(outOfMemory.get());
            return result;
        }
    }
}

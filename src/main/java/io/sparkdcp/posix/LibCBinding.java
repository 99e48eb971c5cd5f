package io.sparkdcp.posix;

import jnr.ffi.LibraryLoader;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * Binds libc for {@link Posix}: the calls every copy makes ({@link LibC}) when Posix is first used, or
 * ahead of it on a thread of its own; each group of the other calls when one of them is first made.
 */
public final class LibCBinding {
    private LibCBinding() {}

    private static volatile FutureTask<LibC> early;

    /**
     * Binds the calls every copy makes on a thread of its own while the caller goes on (the CLI parses
     * its command line meanwhile). Binding is about a fifth of an empty copy's CPU time; on an idle
     * second core it then costs no wall time. Posix waits for it on its first use.
     */
    public static void startEarly() {
        StubDirectory.choose();
        FutureTask<LibC> task = new FutureTask<>(() -> bind(LibC.class));
        early = task;
        Thread thread = new Thread(task, "spark-dcp-libc-binding");
        thread.setDaemon(true);
        thread.start();
    }

    /** The calls every copy makes: bound early, or now. An early binding's failure is thrown as it was. */
    static LibC core() {
        FutureTask<LibC> task = early;
        if (task == null) return bind(LibC.class);
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return task.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Error error) throw error;
            if (cause instanceof RuntimeException runtime) throw runtime;
            throw new IllegalStateException(cause);
        } finally {
            if (interrupted) Thread.currentThread().interrupt();
        }
    }

    static <T> T bind(Class<T> calls) {
        StubDirectory.choose();
        return LibraryLoader.create(calls).failImmediately().load("c");
    }
}

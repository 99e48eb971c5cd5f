package io.sparkdcp.api;

import io.sparkdcp.posix.LibCBinding;
import io.sparkdcp.posix.Signals;

import java.util.List;

/** The libc calls of a copy, for a caller that can have them ready before its first run. */
public final class NativeCalls {
    private NativeCalls() {}

    /**
     * Binds the calls every copy makes on a thread of its own while the caller goes on (the CLI parses
     * its options meanwhile); the first copy, sync or compare in this JVM waits for it.
     */
    public static void bindInBackground() {
        LibCBinding.startEarly();
    }

    /** Of these signal numbers, those blocked in this thread and not ignored: signals a thread may take with {@link #awaitSignal}. */
    public static List<Integer> blockedSignals(List<Integer> signals) {
        return Signals.blockedNotIgnored(signals);
    }

    /** Waits for one of these signals, blocked in every thread, and returns its number. */
    public static int awaitSignal(List<Integer> signals) {
        return Signals.await(signals);
    }
}

package io.sparkdcp.api;

import io.sparkdcp.posix.LibCBinding;

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
}

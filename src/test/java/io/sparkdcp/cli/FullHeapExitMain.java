package io.sparkdcp.cli;

/**
 * A JVM with {@link OutOfMemoryExit} installed, as {@link Main} installs it, whose heap is then filled to
 * the last few bytes and kept full while a thread dies of an OutOfMemoryError, as a Spark thread dies
 * while the driver's walk holds the heap. Arg: the error the thread dies of: {@code heap} (the one the
 * filling ran into), {@code jdk-direct} or {@code netty-direct} (made before the filling, with the JDK's
 * or Netty's message). The JVM ends as the exit ends it.
 */
public final class FullHeapExitMain {
    /** Everything allocated, held so that no collection frees it. */
    private static Object held;

    private FullHeapExitMain() {}

    public static void main(String[] args) throws InterruptedException {
        OutOfMemoryExit.install();
        OutOfMemoryError made = switch (args[0]) {
            case "heap" -> null;
            case "jdk-direct" -> new OutOfMemoryError("Cannot reserve 65536 bytes of direct buffer memory (allocated: 2097152, limit: 2097152)");
            case "netty-direct" -> new OutOfMemoryError("failed to allocate 16777216 byte(s) of direct memory (used: 0, max: 2097152)") {};
            default -> throw new IllegalArgumentException(args[0]);
        };
        Thread dying = new Thread(() -> {
            OutOfMemoryError filled = fillTheHeap();
            throw made == null ? filled : made;
        }, "RemoteBlock-temp-file-clean-thread");
        dying.start();
        dying.join();
    }

    /** Allocates chunks, halving their size at each failure, down to empty arrays; the last failure. */
    private static OutOfMemoryError fillTheHeap() {
        OutOfMemoryError last = null;
        for (int size = 1 << 20; size >= 0; ) {
            try {
                held = new Object[] {held, new byte[size]};
            } catch (OutOfMemoryError e) {
                last = e;
                if (size == 0) break;
                size /= 2;
            }
        }
        return last;
    }
}

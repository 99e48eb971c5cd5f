package io.sparkdcp.cli;

import io.sparkdcp.api.DriverOutOfMemoryException;
import io.sparkdcp.api.DriverOutOfMemoryException.Memory;
import io.sparkdcp.api.OutOfMemoryWatch;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The command's answer to a driver OutOfMemoryError on any thread: one line on stderr, then exit
 * {@link Main#EXIT_OUT_OF_MEMORY} at once, instead of a Spark job that waits for ever for a
 * result its dead thread will never deliver. The lines are encoded in advance and written straight
 * to file descriptor 2, so telling needs no heap. The JVM halts like -XX:+ExitOnOutOfMemoryError:
 * shutdown hooks would need memory, could hang, and would stop Spark under the main thread, which
 * would then report a second, misleading failure.
 */
final class OutOfMemoryExit {
    private static final byte[] HEAP_LINE = line(Memory.HEAP);
    private static final byte[] DIRECT_LINE = line(Memory.DIRECT);
    private static final FileOutputStream STDERR = new FileOutputStream(FileDescriptor.err);
    private static final Runtime RUNTIME = Runtime.getRuntime();
    private static volatile boolean showTrace;
    private static boolean installed;

    private OutOfMemoryExit() {}

    /** For the life of the process: only {@link Main#main} calls it, never a test's JVM. */
    static synchronized void install() {
        if (installed) return;
        installed = true;
        prepare();
        OutOfMemoryWatch.watch(OutOfMemoryExit::exit);
    }

    /**
     * Readies now, with memory to spare, what the exit runs: the JVM makes a string constant, a class's
     * name or a class's static state on the heap at its first use, which throws when the heap is full.
     * A first use inside the exit lost its line that way (exit 3 and no output, in about one run in six
     * of DriverOutOfMemoryTest's heap case: a constant of memoryOf), or its halt (the JVM ran on).
     */
    private static void prepare() {
        lineFor(new OutOfMemoryError("Java heap space")); // through every comparison of memoryOf
        try {
            Class.forName("java.lang.Shutdown"); // Runtime.halt's own class, initialised
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("cannot prepare the out-of-memory exit", e);
        }
    }

    /** {@code --verbose}: the error's stack trace before the line. */
    static void showTrace(boolean show) {
        showTrace = show;
    }

    private static void exit(OutOfMemoryError e) {
        synchronized (OutOfMemoryExit.class) { // the first thread tells; the others wait for the end
            if (showTrace) {
                try {
                    e.printStackTrace();
                } catch (Throwable noMemoryForIt) { // the line still follows
                }
            }
            byte[] line = lineFor(e);
            try {
                STDERR.write(line);
            } catch (Throwable cannotTell) { // exit all the same
            }
            RUNTIME.halt(Main.EXIT_OUT_OF_MEMORY);
        }
    }

    /** The line for the memory the error names; the heap's when even telling which fails (then the heap is full). */
    private static byte[] lineFor(OutOfMemoryError e) {
        try {
            return DriverOutOfMemoryException.memoryOf(e) == Memory.DIRECT ? DIRECT_LINE : HEAP_LINE;
        } catch (Throwable noMemoryToTell) {
            return HEAP_LINE;
        }
    }

    private static byte[] line(Memory memory) {
        return ("spark-dcp: " + DriverOutOfMemoryException.advice(memory) + System.lineSeparator()).getBytes(StandardCharsets.UTF_8);
    }
}

package io.sparkdcp.cli;

import io.sparkdcp.api.InterruptedRun;
import sun.misc.Signal;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

/**
 * The command's answer to SIGTERM, SIGINT and SIGHUP: one line ({@code spark-dcp: interrupted by SIGTERM:
 * re-run to resume}), the {@code --report} file saying {@code "interrupted": true}, Spark's jobs
 * cancelled, then exit {@link Main#EXIT_INTERRUPTED} (rsync's code for the same signals). DST's lock and
 * the temporaries are left as a kill leaves them: the kernel drops the lock, and a re-run resumes.
 *
 * <p>Exactly one ending is told: a run that has begun telling its own result keeps it (the signal
 * is then ignored), and once a signal is taken, everything the run would still print is dropped
 * (a stopped Spark job's "the run stopped", a last message of the copy's threads, Spark's logs).
 */
final class Interruption {
    /** How long the exit's shutdown hooks (Spark's stop) may take before the JVM halts all the same. */
    private static final long HOOKS_MILLIS = 5_000;
    private static final List<String> SIGNALS = List.of("TERM", "INT", "HUP");

    private enum State { RUNNING, ENDING, INTERRUPTED }

    private static final Object LOCK = new Object();
    private static State state = State.RUNNING;
    private static volatile boolean silenced;
    private static volatile String report;
    private static final List<Runnable> onInterrupt = new CopyOnWriteArrayList<>();
    private static final CountDownLatch told = new CountDownLatch(1);
    private static final FileOutputStream STDERR = new FileOutputStream(FileDescriptor.err);

    private Interruption() {}

    /**
     * For the life of the process (only {@link Main#main} calls it): the handlers, and System.out and
     * System.err made silent once a signal is taken. A signal that the process was started ignoring
     * (SIGINT of a background job) stays ignored, as for any Unix command.
     */
    static void install() {
        System.setOut(silencedAfterSignal(System.out, "sun.stdout.encoding"));
        System.setErr(silencedAfterSignal(System.err, "sun.stderr.encoding"));
        for (String name : SIGNALS) {
            try {
                Signal.handle(new Signal(name), Interruption::interrupted);
            } catch (IllegalArgumentException e) { // the JVM keeps it (-Xrs): its own default stays
            }
        }
    }

    /** The --report file as the options hold it (null: none): an interrupted run writes its report there. */
    static void reportTo(String file) {
        report = file;
    }

    /** Run when a signal ends the run, before the exit: Spark's contexts cancel their jobs. */
    static void onInterrupt(Runnable stop) {
        onInterrupt.add(stop);
    }

    static void removeOnInterrupt(Runnable stop) {
        onInterrupt.remove(stop);
    }

    /**
     * The run begins telling its result: false when a signal came first (the caller then tells nothing
     * and returns {@link Main#EXIT_INTERRUPTED}); from true on, signals are ignored.
     */
    static boolean ending() {
        synchronized (LOCK) {
            if (state == State.INTERRUPTED) return false;
            state = State.ENDING;
            return true;
        }
    }

    /** The process's exit code: the run's own, or, once a signal was taken, {@link Main#EXIT_INTERRUPTED} after its report is written. */
    static int exitCode(int runs) {
        if (!ending()) {
            try {
                told.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Main.EXIT_INTERRUPTED;
        }
        return runs;
    }

    private static void interrupted(Signal signal) {
        synchronized (LOCK) {
            if (state == State.INTERRUPTED) Runtime.getRuntime().halt(Main.EXIT_INTERRUPTED); // a second signal: at once
            if (state == State.ENDING) return;
            state = State.INTERRUPTED;
        }
        silenced = true;
        String name = "SIG" + signal.getName();
        tell("spark-dcp: interrupted by " + name + ": re-run to resume");
        String file = report;
        if (file != null) {
            try {
                InterruptedRun.writeReport(name, Main.EXIT_INTERRUPTED, RawArguments.bytes(file));
            } catch (IOException | RuntimeException e) {
                tell("spark-dcp: cannot write the report " + RawArguments.shown(file) + ": " + e);
            }
        }
        told.countDown();
        for (Runnable stop : onInterrupt) {
            try {
                stop.run();
            } catch (RuntimeException e) { // a context already stopping: the exit stops it anyway
            }
        }
        Thread halt = new Thread(() -> {
            try {
                Thread.sleep(HOOKS_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            Runtime.getRuntime().halt(Main.EXIT_INTERRUPTED);
        }, "halt after interruption");
        halt.setDaemon(true);
        halt.start();
        System.exit(Main.EXIT_INTERRUPTED);
    }

    private static void tell(String line) {
        try {
            STDERR.write((line + System.lineSeparator()).getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) { // nowhere to tell: the exit code still does
        }
    }

    /** The stream as it is (in the JVM's encoding for it), until a signal is taken; then nothing more reaches it. */
    private static PrintStream silencedAfterSignal(PrintStream stream, String encodingProperty) {
        String encoding = System.getProperty(encodingProperty);
        Charset charset = encoding != null && Charset.isSupported(encoding) ? Charset.forName(encoding) : Charset.defaultCharset();
        return new PrintStream(new OutputStream() {
            @Override
            public void write(int b) {
                if (!silenced) stream.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                if (!silenced) stream.write(b, off, len);
            }

            @Override
            public void flush() {
                if (!silenced) stream.flush();
            }
        }, true, charset);
    }
}

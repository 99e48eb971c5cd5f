package io.sparkdcp.cli;

import io.sparkdcp.api.InterruptedRun;
import io.sparkdcp.api.NativeCalls;
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
import java.util.concurrent.TimeUnit;

/**
 * The command's answer to SIGTERM, SIGINT and SIGHUP: one line ({@code spark-dcp: interrupted by SIGTERM:
 * re-run to resume}), the {@code --report} file saying {@code "interrupted": true}, Spark's jobs
 * cancelled, then exit {@link Main#EXIT_INTERRUPTED} (rsync's code for the same signals). DST's lock and
 * the temporaries are left as a kill leaves them: the kernel drops the lock, and a re-run resumes.
 *
 * <p>Exactly one ending is told: a run that has begun telling its own result keeps it (the signal
 * is then ignored), and once a signal is taken, everything the run would still print is dropped
 * (a stopped Spark job's "the run stopped", a last message of the copy's threads, Spark's logs).
 *
 * <p>From the first instruction: {@link Main#main} installs the handlers before anything else, and a
 * signal the launcher took before it started the JVM comes in {@value #LAUNCHER_SIGNAL}, taken here
 * as if it came now. The report is written only where the command has checked it may be: a signal
 * that comes before that check waits for it (or for the command to end without one). Once checked,
 * the file says {@code "interrupted": true} at once, until the run's own report replaces it, so no
 * older run's report is left there whatever ends the run.
 */
final class Interruption {
    /** How long the exit's shutdown hooks (Spark's stop) may take before the JVM halts all the same. */
    private static final long HOOKS_MILLIS = 5_000;
    private static final List<String> SIGNALS = List.of("TERM", "INT", "HUP");
    /** Linux's numbers for SIGTERM, SIGINT and SIGHUP, in the order of {@link #SIGNALS}. */
    private static final List<Integer> NUMBERS = List.of(15, 2, 1);
    /**
     * Set by the launcher when it started the JVM with the three blocked and -Xrs (the JVM then leaves them alone): a
     * thread of ours takes them, and one that came while the JVM started was pending, not lost.
     */
    static final String SIGNALS_BLOCKED = "SPARK_DCP_SIGNALS_BLOCKED";
    /** The environment variable in which the launcher names a signal it took before the JVM started (TERM, INT or HUP). */
    static final String LAUNCHER_SIGNAL = "SPARK_DCP_SIGNALLED";
    /** How long a signal that came before the command checked its --report waits for the check. */
    private static final long REPORT_CHECK_MILLIS = 10_000;

    private enum State { RUNNING, ENDING, INTERRUPTED }

    private static final Object LOCK = new Object();
    private static State state = State.RUNNING;
    private static volatile boolean silenced;
    private static volatile String report;
    private static final List<Runnable> onInterrupt = new CopyOnWriteArrayList<>();
    private static final CountDownLatch told = new CountDownLatch(1);
    /** Counted down once the command has checked its --report (or has none, or ends without one). */
    private static final CountDownLatch reportKnown = new CountDownLatch(1);
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
                Signal.handle(new Signal(name), signal -> interrupted("SIG" + signal.getName()));
            } catch (IllegalArgumentException e) { // the JVM keeps it (-Xrs): its own default stays
            }
        }
        String blocked = System.getenv(SIGNALS_BLOCKED);
        if (blocked != null && !blocked.isEmpty()) takeBlockedSignals();
        String early = System.getenv(LAUNCHER_SIGNAL);
        if (early != null && SIGNALS.contains(early)) {
            // On a thread of its own, as the JVM's handlers run: the main thread goes on to check --report meanwhile.
            Thread taken = new Thread(() -> interrupted("SIG" + early), "signal taken by the launcher");
            taken.setDaemon(true);
            taken.start();
        }
    }

    /** A thread that takes the blocked signals one by one, each handled on a thread of its own (the first ends in System.exit). */
    private static void takeBlockedSignals() {
        Thread taker = new Thread(() -> {
            List<Integer> blocked;
            try {
                blocked = NativeCalls.blockedSignals(NUMBERS); // a signal the process was started ignoring stays ignored
            } catch (LinkageError e) { // libc cannot be bound: the run's own first call says so, in one line
                return;
            }
            if (blocked.isEmpty()) return;
            while (true) {
                String name = "SIG" + SIGNALS.get(NUMBERS.indexOf(NativeCalls.awaitSignal(blocked)));
                Thread handler = new Thread(() -> interrupted(name), "signal " + name);
                handler.setDaemon(true);
                handler.start();
            }
        }, "spark-dcp-signals");
        taker.setDaemon(true);
        taker.start();
    }

    /**
     * The --report file once the command has checked it (null: none): from now on an interrupted run writes its
     * report there, and until the run's own report replaces it, the file says the run has not ended.
     */
    static void reportTo(String file) {
        synchronized (LOCK) {
            report = file;
            if (file != null && state == State.RUNNING) {
                try {
                    InterruptedRun.writeUnfinished(RawArguments.bytes(file));
                } catch (IOException | RuntimeException e) { // the run's end says so, when it cannot write the report either
                }
            }
        }
        reportKnown.countDown();
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
            if (state == State.INTERRUPTED) {
                reportKnown.countDown(); // the command ends without checking a report: none is written
                return false;
            }
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

    private static void interrupted(String name) {
        synchronized (LOCK) {
            if (state == State.INTERRUPTED) Runtime.getRuntime().halt(Main.EXIT_INTERRUPTED); // a second signal: at once
            if (state == State.ENDING) return;
            state = State.INTERRUPTED;
        }
        silenced = true;
        tell("spark-dcp: interrupted by " + name + ": re-run to resume");
        try {
            reportKnown.await(REPORT_CHECK_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
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

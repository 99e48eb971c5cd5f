package io.sparkdcp.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The run's messages and progress on stderr, where users look. On a terminal the progress is one
 * line redrawn in place (carriage return, then clear to the end of the line), a message clears it
 * first, and {@link #end} closes it with a newline; elsewhere (a log of Airflow, Slurm, cron) each
 * progress line is a line of its own, like any message.
 */
final class StatusLines {
    /** Terminal control: back to the start of the line, and clear from the cursor to its end. */
    static final String REDRAW = "\r";
    static final String CLEAR_TO_END = "\033[K";
    private static final Path STDERR_FD = Path.of("/proc/self/fd/2");
    /** This process's stderr, as {@link Main#main} gives it to the commands (a test's writer of its own is no terminal). */
    static final PrintWriter STDERR = new PrintWriter(System.err, true);

    private final PrintWriter err;
    private final boolean terminal;
    private boolean lineOpen;

    StatusLines(PrintWriter err, boolean terminal) {
        this.err = err;
        this.terminal = terminal;
    }

    /** Lines on {@code err}, redrawn in place when it is this process's stderr and that is a terminal. */
    static StatusLines of(PrintWriter err) {
        return new StatusLines(err, err == STDERR && stderrIsTerminal());
    }

    /** True when this process's stderr is a terminal (what /proc says fd 2 is: a pty or a tty). */
    static boolean stderrIsTerminal() {
        try {
            String target = Files.readSymbolicLink(STDERR_FD).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty") || target.equals("/dev/console");
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    boolean terminal() {
        return terminal;
    }

    synchronized void message(String line) {
        closeLine(CLEAR_TO_END);
        err.println("spark-dcp: " + line);
        err.flush();
    }

    synchronized void progress(String line) {
        if (!terminal) {
            message(line);
            return;
        }
        err.print(REDRAW + line + CLEAR_TO_END);
        err.flush();
        lineOpen = true;
    }

    /** The progress line, if one is drawn, ends here: what follows starts on a line of its own. */
    synchronized void end() {
        closeLine("");
        err.flush();
    }

    /** A drawn progress line is cleared (before a message) or kept ("") and ended. */
    private void closeLine(String clearing) {
        if (!lineOpen) return;
        if (clearing.isEmpty()) err.println();
        else err.print(REDRAW + clearing);
        lineOpen = false;
    }
}

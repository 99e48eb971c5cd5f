package io.sparkdcp.cli;

import io.sparkdcp.api.DriverOutOfMemoryException;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * Error output for people and log scrapers: {@code spark-dcp: <reason>} on one line, instead of
 * picocli's default of the whole usage text after every typo, or a stack trace when a run stops.
 * {@link #describe} is public for the commands of modules ({@link ModuleCommand}).
 */
public final class ShortErrors {
    private ShortErrors() {}

    /**
     * One line: the reason, picocli's suggestions if any, and where the help is; for a word known elsewhere (another
     * command's option, a misspelt command, an rsync option) what to type instead ({@link UsageHints}).
     */
    static int invalidInput(ParameterException e, String[] args) {
        CommandLine cmd = e.getCommandLine();
        String hint = e instanceof UnmatchedArgumentException u ? UsageHints.hint(u) : null;
        if (hint != null) {
            cmd.getErr().println("spark-dcp: " + hint);
            cmd.getErr().flush();
            return cmd.getCommandSpec().exitCodeOnInvalidInput();
        }
        StringWriter suggestions = new StringWriter();
        UnmatchedArgumentException.printSuggestions(e, new PrintWriter(suggestions));
        String suggested = suggestions.toString().strip().replaceAll("\\s+", " ");
        PrintWriter err = cmd.getErr();
        err.println("spark-dcp: " + RawArguments.bytesShown(firstLine(e.getMessage())) + (suggested.isEmpty() ? "" : " (" + suggested + ")")
                + "; see '" + cmd.getCommandSpec().qualifiedName() + " --help'");
        err.flush();
        return cmd.getCommandSpec().exitCodeOnInvalidInput();
    }

    /**
     * The run itself stopped (Spark gave up, a root vanished, a bug): one line with the innermost
     * cause, which is what the user can act on; the stack trace only with {@code --verbose}, for a bug report.
     * The driver out of memory is the exception: its documented line and exit 3, from whichever run.
     */
    static int unexpected(Exception e, CommandLine cmd, ParseResult parsed) {
        PrintWriter err = cmd.getErr();
        // A run the commands do not catch it from (a dry run): exit 3 all the same.
        if (e instanceof DriverOutOfMemoryException d) return CopyCommand.outOfMemory(err, verbose(parsed), d);
        err.println("spark-dcp: the run stopped: " + describe(e));
        if (verbose(parsed)) e.printStackTrace(err);
        err.flush();
        return cmd.getCommandSpec().exitCodeOnExecutionException();
    }

    /**
     * libc's calls could not be bound (jnr-ffi's UnsatisfiedLinkError, 70 lines of trace): why, and what to change. jffi
     * writes a small library to java.io.tmpdir (else to the user's cache, else to the current directory) and maps it.
     */
    static String cannotBind(LinkageError e) {
        String reason = describe(e);
        if (reason.contains("jffi binary stub"))
            return "cannot load libc's calls: jffi could write its stub library nowhere it may be run (java.io.tmpdir "
                    + System.getProperty("java.io.tmpdir") + ", the cache, the current directory: unwritable or mounted noexec); "
                    + "set SPARK_DCP_CACHE_DIR (or java.io.tmpdir) to a directory you can write on a file system not mounted noexec";
        return "cannot load libc's calls (jnr-ffi): " + reason + " (this libc lacks a call spark-dcp makes, or the JVM may not load native code)";
    }

    /** The innermost cause, as its class's simple name and the first line of its message. */
    public static String describe(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) root = root.getCause();
        String message = root.getMessage() == null ? "" : ": " + firstLine(root.getMessage());
        return root.getClass().getSimpleName() + message;
    }

    private static String firstLine(String message) {
        String line = message.strip();
        int end = line.indexOf('\n');
        return end < 0 ? line : line.substring(0, end).strip();
    }

    private static boolean verbose(ParseResult parsed) {
        for (ParseResult p = parsed; p != null; p = p.subcommand()) if (p.hasMatchedOption("--verbose")) return true;
        return false;
    }
}

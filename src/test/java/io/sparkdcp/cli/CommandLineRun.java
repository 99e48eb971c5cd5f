package io.sparkdcp.cli;

import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

/** One in-process run of the CLI with its output captured. */
record CommandLineRun(int exitCode, String out, String err) {

    /** As the tests of other packages drive it: a plain CommandLine around Main. */
    static CommandLineRun of(String... args) {
        return on(new CommandLine(new Main()), args);
    }

    /** As the launcher runs it, with the one-line error messages. */
    static CommandLineRun asLaunched(String... args) {
        return on(Main.commandLine(), args);
    }

    private static CommandLineRun on(CommandLine cl, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new CommandLineRun(code, out.toString(), err.toString());
    }
}

package io.sparkdcp.cli;

import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

import java.io.PrintWriter;

/**
 * Error output for people and log scrapers: {@code spark-dcp: <reason>} on one line and a pointer
 * to the help, instead of picocli's default of the whole usage text after every typo.
 */
final class ShortErrors {
    private ShortErrors() {}

    static int invalidInput(ParameterException e, String[] args) {
        CommandLine cmd = e.getCommandLine();
        PrintWriter err = cmd.getErr();
        err.println("spark-dcp: " + e.getMessage());
        UnmatchedArgumentException.printSuggestions(e, err);
        err.println("Try '" + cmd.getCommandSpec().qualifiedName() + " --help' for more information.");
        err.flush();
        return cmd.getCommandSpec().exitCodeOnInvalidInput();
    }

    /** A bug or a failure of the run itself (not of single entries): the trace is what a bug report needs. */
    static int unexpected(Exception e, CommandLine cmd, ParseResult parsed) {
        PrintWriter err = cmd.getErr();
        err.println("spark-dcp: the copy stopped: " + e);
        e.printStackTrace(err);
        err.flush();
        return cmd.getCommandSpec().exitCodeOnExecutionException();
    }
}

package io.sparkdcp.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * What copy, sync and compare print, by rsync's letters: {@code -q} errors only, {@code -v} more,
 * {@code -h} sizes for people (always so). {@code -h} is rsync's human-readable here, so help is
 * {@code --help} alone, as in rsync once a command is given.
 */
final class OutputOptions {
    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    @Option(names = {"-q", "--quiet"}, description = "Errors only: no summary, no progress, no notices; the failed "
            + "entries and errors still go to stderr, and the exit code and the --report file are the same.")
    boolean quiet;

    @Option(names = {"-v", "--verbose"}, description = "Also show where the time went, step by step (the report's "
            + "steps; its JSON always has them), the stack trace of a run that stops, and, on Spark, Spark's INFO messages.")
    boolean verbose;

    @Option(names = {"-h", "--human-readable"}, description = "Accepted for rsync's habit; always so: sizes are shown "
            + "in IEC units (KiB, MiB, GiB, TiB with one decimal), exact byte counts beside them.")
    boolean humanReadable;

    @Option(names = "--help", usageHelp = true, description = "Show this help message and exit (-h is --human-readable, as in rsync).")
    boolean help;

    @Option(names = {"-V", "--version"}, versionHelp = true, description = "Print version information and exit.")
    boolean version;

    /** -q and -v together ask for less and more at once. */
    void check() {
        if (quiet && verbose)
            throw new ParameterException(command.commandLine(), "--quiet and --verbose exclude each other: -q prints errors only");
    }
}

package io.sparkdcp.cli;

import io.sparkdcp.api.CopyRequest;
import io.sparkdcp.api.CopyResult;
import io.sparkdcp.api.DriverOutOfMemoryException;
import io.sparkdcp.api.RunResult;
import io.sparkdcp.api.DryRun;
import io.sparkdcp.api.PreparedCopy;
import io.sparkdcp.api.ReportFile;
import io.sparkdcp.api.SparkDcp;
import picocli.CommandLine.Command;
import picocli.CommandLine.IParameterPreprocessor;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Stack;
import java.util.concurrent.Callable;
import java.util.function.Consumer;

/**
 * {@code spark-dcp copy SRC... DST}, sources by rsync's rule ({@code SRC/}: its contents into DST;
 * {@code SRC}: SRC itself, to {@code DST/name}). Every option value is checked while parsing, and the roots before
 * Spark starts and before DST is created, so a usage error (exit 2) leaves no trace.
 */
@Command(name = "copy", versionProvider = VersionProvider.class, sortOptions = false,
        description = {"Copy each SRC into DST, keeping all metadata, with project IDs. By rsync's rule: SRC/ (with the "
                + "trailing slash) copies SRC's contents into DST, like cp -a SRC/. DST; SRC (without it) copies SRC "
                + "itself to DST/SRC's name, whether DST exists or not. Several sources are one job with one report.",
                "DST is created if missing, but not its parent (unless --mkpath). Entries already identical at DST are "
                        + "skipped, so running the same copy again resumes it and copies nothing new.",
                "rsync's habits work: -n, -q, -v, -h (sizes in KiB, MiB...; help is --help), --stats, --info=progress2, "
                        + "and -a, -r (accepted: every piece of metadata is always kept, and directories always copied whole)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:everything copied or already identical",
                "1:some entries failed (listed on stderr and in the report); the rest was copied. "
                        + "Also when the run itself stopped, or the report could not be written",
                "2:usage error or impossible request; nothing was written",
                "3:the driver ran out of memory; the run stopped at once (run it again with more to resume)",
                "20:interrupted by SIGTERM, SIGINT or SIGHUP; the run stopped at once (run it again to resume)"},
        // Examples: a line that starts with "spark-dcp ", then what it does (the man page's EXAMPLES, ManualGenerator).
        footerHeading = "%nExamples:%n",
        footer = {"  spark-dcp copy /data/src/ /data/dst",
                "      Copy src's contents into dst, on threads in this JVM.",
                "  spark-dcp copy /data/src /data/dst",
                "      Copy src itself, to dst/src.",
                "  spark-dcp copy --master 'local[*]' /data/src/ /data/dst",
                "      The same copy on Spark, embedded in this JVM.",
                "  spark-dcp copy --report run1.json /data/src/ /data/dst",
                "      Also write the report as JSON to run1.json."})
class CopyCommand implements Callable<Integer> {
    /** Progress on a terminal: one line redrawn about once a second. */
    static final int PROGRESS_SECONDS_ON_A_TERMINAL = 1;
    /** Progress elsewhere (Airflow, Slurm, cron, a pipe): a line a minute, so a log shows movement without filling up. */
    static final int PROGRESS_SECONDS_IN_A_LOG = 60;

    @Spec
    CommandSpec spec;

    /** The sources, then DST (picocli cannot put a list before a last single value). */
    // 1..*, counted in call(): picocli takes a 2..* list two at a time, and refused the "--" of "SRC -- DST".
    @Parameters(arity = "1..*", paramLabel = "SRC... DST", hideParamSyntax = true, // one list: no "..." after DST
            description = "Sources (SRC/: the directory's contents; SRC: the directory, file or symlink itself, to DST/name; "
                    + "one file with DST not a directory: DST becomes the file), then the destination (created if "
                    + "missing; its parent must exist unless --mkpath).")
    List<String> paths;

    @Option(names = "--master", paramLabel = "URL", converter = SparkContexts.MasterConverter.class,
            description = "Spark master: local, local[N], local[*], spark://HOST:PORT, yarn or k8s://URL (default: the one "
                    + "spark-submit was given; run directly, the same job on threads in this JVM, without starting Spark).")
    String master;

    @Option(names = "--report", paramLabel = "FILE", description = "Also write the report as JSON to FILE.")
    String reportFile;

    @Mixin
    OutputOptions output;

    @Mixin
    EngineOptions engine;

    @Mixin
    FilterOptions filters;

    /** --progress's seconds; null: the default for where stderr goes. */
    private Long progressSeconds;

    /** --progress alone, as rsync users type it: the default interval. */
    private static final long DEFAULT_INTERVAL = Long.MIN_VALUE;

    /**
     * --progress takes the next argument only when it is a number: {@code --progress SRC/ DST} is rsync's --progress.
     * A value joined to it ({@code --progress=N}) is always its own, so {@code --progress=abc} is refused, not read as a source.
     */
    static final class OptionalSeconds implements IParameterPreprocessor {
        @Override
        public boolean preprocess(Stack<String> args, CommandSpec command, ArgSpec option, Map<String, Object> info) {
            boolean joined = !String.valueOf(info.get("separator")).isBlank(); // " " when the value is an argument of its own
            boolean number = !args.isEmpty() && args.peek().matches("-?[0-9]+");
            if (!joined && !number) {
                option.setValue(DEFAULT_INTERVAL);
                return true;
            }
            String value = args.pop();
            try {
                option.setValue(Long.parseLong(value));
            } catch (NumberFormatException e) {
                throw new ParameterException(command.commandLine(), "Invalid value for option '--progress': '" + value + "' is not a number of seconds");
            }
            return true;
        }
    }

    @Option(names = "--progress", paramLabel = "SECONDS", arity = "0..1", preprocessor = OptionalSeconds.class,
            description = "Print entries and bytes done out of the total, rate and ETA on stderr every SECONDS while "
                    + "copying; 0: never. On a terminal it is one line redrawn in place; elsewhere (a log of Airflow, Slurm, "
                    + "cron) a line each time. Default (and --progress alone): every " + PROGRESS_SECONDS_ON_A_TERMINAL
                    + " s on a terminal, every " + PROGRESS_SECONDS_IN_A_LOG + " s elsewhere; -q: never.")
    void progress(long seconds) {
        if (seconds == DEFAULT_INTERVAL) {
            progressSeconds = null;
            return;
        }
        OptionValue.set(spec, "--progress", () -> engine.request.progressSeconds(seconds));
        progressSeconds = seconds;
    }

    /** The one word --info takes, for completion. */
    static final class InfoWords extends ArrayList<String> {
        InfoWords() { super(List.of("progress2")); }
    }

    @Option(names = "--info", paramLabel = "progress2", completionCandidates = InfoWords.class, description = "rsync's whole-transfer progress: --info=progress2 "
            + "is --progress at its default interval (the only word taken).")
    void info(String word) {
        if (!word.equals("progress2"))
            throw new ParameterException(spec.commandLine(), "Invalid value for option '--info': only progress2 is taken "
                    + "(rsync's whole-transfer progress), not '" + word + "'");
        progressSeconds = null;
    }

    @Option(names = "--stats", description = "End with rsync's closing summary: number of files, files created and "
            + "deleted, regular files transferred, total and transferred size, rate, and rsync's speedup (total size "
            + "divided by the file data transferred).")
    boolean stats;

    @Option(names = {"-a", "--archive"}, description = "Accepted for rsync's habit; always so: owner, group, mode, "
            + "times, symlinks, devices, hard links, ACLs, xattrs and project IDs are kept (rsync's -aAXH and more).")
    boolean archive;

    @Option(names = {"-r", "--recursive"}, description = "Accepted for rsync's habit; always so: directories are copied "
            + "with all they hold.")
    boolean recursive;

    @Mixin
    ItemLogOptions itemLog;

    @Option(names = {"-n", "--dry-run"}, description = "Print what would be copied, fixed and deleted (copy: PATH, fix metadata: "
            + "PATH: KINDS, delete: PATH), and change nothing on either side; DST is not even created. Judged by the run's own "
            + "rule, reading on both sides what the run reads: symlink targets, xattrs, ACLs, project IDs and flags, and with "
            + "--contents the bytes. KINDS are the words of the run's --log (mode,mtime,xattr...).")
    boolean dryRun;

    @Override
    public Integer call() {
        output.check();
        if (reportFile == null) Interruption.reportTo(null); // nothing to check: a signal from now on writes no report
        if (paths.size() < 2) return usageError(missingDestination());
        String missing = FullClassPath.missingFor(spec);
        if (missing != null) return usageError(missing);
        PreparedCopy copy;
        try {
            copy = prepare();
            // Checked: a signal from now on writes its report there; a dry run writes none.
            if (reportFile != null) Interruption.reportTo(dryRun ? null : reportFile);
        } catch (IllegalArgumentException e) { // a UsageException, or options that exclude each other
            return usageError(e.getMessage());
        }
        try {
            Integer withoutSpark = runWithoutSpark(copy);
            if (withoutSpark != null) return withoutSpark;
        } catch (IllegalArgumentException e) {
            return usageError(e.getMessage());
        }
        boolean verbose = output.verbose;
        if (verbose && wantsSpark()) Logging.verbose(); // a run on threads has no log4j to configure
        OutOfMemoryExit.showTrace(verbose);
        Runnable releaseRoots = copy.holdRootsUntilReleased(); // after the report: nothing runs into DST while it tells of DST
        try {
            if (dryRun) return printPlan(SparkContexts.dryRun(master, verbose, copy, deletes()));
            return finish(wantsSpark() ? SparkContexts.run(master, verbose, onSpark(copy)) : runInProcess(copy));
        } catch (SparkContexts.CannotStart e) {
            return usageError("cannot start Spark: " + ShortErrors.describe(e.getCause()));
        } catch (IllegalArgumentException e) { // a UsageException: speculation on, DST not creatable
            return usageError(e.getMessage());
        } catch (DriverOutOfMemoryException e) {
            return outOfMemory(spec.commandLine().getErr(), verbose, e);
        } finally {
            status.end();
            releaseRoots.run();
        }
    }

    String missingDestination() {
        return "missing DST: give SRC... DST; see '" + spec.qualifiedName() + " --help'";
    }

    /** The roots, the options and the report's place checked, nothing written: IllegalArgumentException says what is wrong. */
    PreparedCopy prepare() {
        List<byte[]> named = paths.stream().map(RawArguments::bytes).toList();
        PreparedCopy copy = SparkDcp.prepare(named.subList(0, named.size() - 1), named.get(named.size() - 1), request());
        if (reportFile != null) {
            checkReportTarget(reportFile);
            copy.checkReport(RawArguments.bytes(reportFile));
        }
        return copy;
    }

    /**
     * Spark only when asked for, by --master or by spark-submit (which passes its master as the
     * system property spark.master): a copy on this machine runs the same job on threads in this
     * JVM, without Spark's start-up of several seconds.
     */
    private boolean wantsSpark() {
        return master != null || System.getProperty("spark.master") != null;
    }

    /**
     * The job on a Spark context; sync overrides it. Spark's classes appear in no signature of a
     * command class: picocli reflects on every method, which would load them for a run without Spark.
     */
    SparkContexts.Job onSpark(PreparedCopy copy) {
        return copy::run;
    }

    /** The job on threads in this JVM; sync overrides it. */
    CopyResult runInProcess(PreparedCopy copy) {
        return copy.runInProcess();
    }

    /**
     * A run that needs neither Spark nor a destination (--dry-run) returns its exit code here; null otherwise.
     * A dry run whose copy would list on the executors (--walk distributed, or auto on a cluster) runs there.
     */
    private Integer runWithoutSpark(PreparedCopy copy) {
        if (!dryRun) return null;
        if (wantsSpark()) {
            String m = master != null ? master : System.getProperty("spark.master");
            if (copy.listsOnExecutors(!m.startsWith("local"))) return null;
        }
        return printPlan(dryRun(copy));
    }

    private int printPlan(DryRun plan) {
        PrintWriter out = spec.commandLine().getOut();
        if (!output.quiet) out.print(plan);
        out.flush();
        plan.printProblems(spec.commandLine().getErr());
        return plan.exitCode();
    }

    /** The plan of this run; sync adds its deletions. */
    DryRun dryRun(PreparedCopy copy) {
        return copy.dryRun(false);
    }

    /** Whether the run deletes what SRC lacks: sync --delete. */
    boolean deletes() {
        return false;
    }

    /** Sync adds its modes to the request. */
    CopyRequest.Builder withModes(CopyRequest.Builder request) {
        return request;
    }

    private CopyRequest request() {
        status = StatusLines.of(spec.commandLine().getErr());
        Consumer<String> messages = shownTo != null ? shownTo.messages() : status::message;
        Consumer<String> progress = shownTo != null ? shownTo.progress() : status::progress;
        long byDefault = shownTo != null ? shownTo.progressSeconds()
                : status.terminal() ? PROGRESS_SECONDS_ON_A_TERMINAL : PROGRESS_SECONDS_IN_A_LOG;
        CopyRequest.Builder request = itemLog.applyTo(engine.request)
                .messages(output.quiet ? line -> {} : messages).progress(progress)
                .progressSeconds(output.quiet ? 0 : progressSeconds != null ? progressSeconds : byDefault);
        return withModes(request).build();
    }

    /** Where a caller's session shows the run's lines ({@link SessionCommand}); null: stderr, as the CLI does. */
    SessionCommand.Shown shownTo;

    /** Where messages and progress go; made with the request. */
    private StatusLines status;

    /** Found out now, not after hours of copying. */
    static void checkReportTarget(String file) {
        ReportFile.check(RawArguments.bytes(file));
    }

    private int finish(CopyResult result) {
        status.end();
        return finish(spec, result, reportFile, spec.exitCodeOnExecutionException(), output, stats);
    }

    /**
     * The summary on stdout (with -v its step table, with --stats rsync's summary; with -q none), problems on
     * stderr (with -q the failures alone), the JSON report if asked for (the same whatever is printed);
     * copy, sync and compare end here.
     */
    static int finish(CommandSpec spec, RunResult result, String reportFile, int exitIfNoReport, OutputOptions output, boolean stats) {
        if (!Interruption.ending()) return Main.EXIT_INTERRUPTED; // a signal told the ending already
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (!output.quiet) out.print(result.summary(output.verbose, stats));
        out.flush();
        if (output.quiet) result.printFailures(err);
        else result.printProblems(err);
        if (reportFile != null) {
            try {
                result.writeJson(RawArguments.bytes(reportFile));
            } catch (IOException e) {
                err.println("spark-dcp: cannot write the report " + RawArguments.shown(reportFile) + ": " + e);
                err.flush();
                return exitIfNoReport;
            }
        }
        return result.exitCode();
    }

    /** One line (the trace with --verbose) and exit 3; compare shares it. */
    static int outOfMemory(PrintWriter err, boolean verbose, DriverOutOfMemoryException e) {
        if (verbose) e.printStackTrace(err);
        err.println("spark-dcp: " + e.getMessage());
        err.flush();
        return Main.EXIT_OUT_OF_MEMORY;
    }

    int usageError(String reason) {
        PrintWriter err = spec.commandLine().getErr();
        err.println("spark-dcp: " + reason);
        err.flush();
        return Main.EXIT_USAGE;
    }
}

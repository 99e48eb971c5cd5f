package io.sparkdcp.cli;

import io.sparkdcp.api.CompareResult;
import io.sparkdcp.api.DriverOutOfMemoryException;
import io.sparkdcp.api.CopyRequest;
import io.sparkdcp.api.PreparedCompare;
import io.sparkdcp.api.SparkDcp;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/**
 * {@code spark-dcp compare SRC DST}: the check after a migration (mpifileutils' dcmp, rsync -n -c),
 * project IDs and PROJINHERIT included. Reads both trees, writes to neither. Its options go into the
 * API's request like the copy's, the engine's shared ones through the same mixin.
 */
@Command(name = "compare", versionProvider = VersionProvider.class, sortOptions = false,
        exitCodeOnExecutionException = Main.EXIT_USAGE,
        description = {"Compare the trees SRC and DST entry by entry and report every difference: entries one side "
                + "lacks, type, size, mode, owner, group, mtime (to the nanosecond), device numbers, symlink targets, "
                + "hard links, xattrs and ACLs, project IDs and PROJINHERIT, and with --contents the bytes of files.",
                "Neither tree is written: files are opened read-only, without following symlinks, and with O_NOATIME "
                        + "where allowed (owner or root). --xattrs names the xattrs compared; --batch-*, --chunk-size and "
                        + "--threads-per-task cut the comparison into tasks as they cut a copy."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the trees are identical",
                "1:differences found (summary on stdout, the first 50 on stderr, all in the report)",
                "2:usage error, or some entries could not be read and compared (listed on stderr and in the report)",
                "20:interrupted by SIGTERM, SIGINT or SIGHUP; the comparison stopped at once"},
        footerHeading = "%nExamples:%n",
        footer = {"  spark-dcp compare /data/src/ /data/dst",
                "      List every difference between the two trees, metadata included.",
                "  spark-dcp compare --contents --report check.json /data/src/ /data/dst",
                "      The bytes of files too, with every difference in check.json."})
final class CompareCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SRC", description = "The tree copied from (or the expected one). As for copy: SRC/ is compared with DST, SRC with DST/<name of SRC> (a file with DST itself when DST is not a directory).")
    String source;

    @Parameters(index = "1", paramLabel = "DST", description = "The tree to check against SRC.")
    String destination;

    @Option(names = "--master", paramLabel = "URL", converter = SparkContexts.MasterConverter.class,
            description = "Spark master: local, local[N], local[*], spark://HOST:PORT, yarn or k8s://URL (default: the one "
                    + "spark-submit was given; run directly, threads in this JVM, without starting Spark).")
    String master;

    @Option(names = "--report", paramLabel = "FILE", description = "Also write the report, every difference listed, as JSON to FILE.")
    String reportFile;

    @Mixin
    OutputOptions output;

    @Mixin
    EngineOptions engine;

    @Mixin
    ItemLogOptions itemLog;

    @Override
    public Integer call() {
        output.check();
        if (reportFile == null) Interruption.reportTo(null); // nothing to check: a signal from now on writes no report
        String missing = FullClassPath.missingFor(spec);
        if (missing != null) return usageError(missing);
        PreparedCompare compare;
        try {
            compare = prepare();
            if (reportFile != null) Interruption.reportTo(reportFile); // checked: a signal from now on writes its report there
        } catch (IllegalArgumentException e) { // a UsageException (DST missing, say), or options that exclude each other
            return usageError(e.getMessage());
        }
        boolean verbose = output.verbose;
        if (verbose && wantsSpark()) Logging.verbose(); // a run on threads has no log4j to configure
        OutOfMemoryExit.showTrace(verbose);
        CompareResult result;
        try {
            result = wantsSpark() ? SparkContexts.compare(master, verbose, compare) : compare.runInProcess();
        } catch (SparkContexts.CannotStart e) {
            return usageError("cannot start Spark: " + ShortErrors.describe(e.getCause()));
        } catch (IllegalArgumentException e) { // a UsageException: speculation on
            return usageError(e.getMessage());
        } catch (DriverOutOfMemoryException e) {
            return CopyCommand.outOfMemory(spec.commandLine().getErr(), verbose, e);
        }
        return finish(result);
    }

    /** The roots, the options and the report's place checked, nothing read yet: IllegalArgumentException says what is wrong. */
    PreparedCompare prepare() {
        PreparedCompare compare = SparkDcp.prepareCompare(RawArguments.bytes(source), RawArguments.bytes(destination), request());
        if (reportFile != null) {
            CopyCommand.checkReportTarget(reportFile);
            compare.checkReport(RawArguments.bytes(reportFile));
        }
        return compare;
    }

    private boolean wantsSpark() {
        return master != null || System.getProperty("spark.master") != null;
    }

    private CopyRequest request() {
        PrintWriter err = spec.commandLine().getErr();
        return itemLog.applyTo(engine.request)
                .messages(output.quiet ? line -> {} : shownTo != null ? shownTo.messages() : line -> {
                    err.println("spark-dcp: " + line);
                    err.flush();
                })
                .build();
    }

    /** Where a caller's session shows the run's lines ({@link SessionCommand}); null: stderr, as the CLI does. */
    SessionCommand.Shown shownTo;

    private int finish(CompareResult result) {
        return CopyCommand.finish(spec, result, reportFile, Main.EXIT_USAGE, output, false); // not 1, which says "different"
    }

    private int usageError(String reason) {
        PrintWriter err = spec.commandLine().getErr();
        err.println("spark-dcp: " + reason);
        err.flush();
        return Main.EXIT_USAGE;
    }
}

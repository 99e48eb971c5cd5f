package io.sparkdcp.cli;

import io.sparkdcp.api.CompareResult;
import io.sparkdcp.api.CopyRequest;
import io.sparkdcp.api.PreparedCompare;
import io.sparkdcp.api.SparkDcp;
import io.sparkdcp.job.UsageException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code spark-dcp compare SRC DST}: the check after a migration (mpifileutils' dcmp, rsync -n -c),
 * project IDs and PROJINHERIT included. Reads both trees, writes to neither.
 */
@Command(name = "compare", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class, sortOptions = false,
        exitCodeOnExecutionException = Main.EXIT_USAGE,
        description = {"Compare the trees SRC and DST entry by entry and report every difference: entries one side "
                + "lacks, type, size, mode, owner, group, mtime (to the nanosecond), device numbers, symlink targets, "
                + "hard links, xattrs and ACLs, project IDs and PROJINHERIT, and with --contents the bytes of files.",
                "Neither tree is written: files are opened read-only, without following symlinks, and with O_NOATIME "
                        + "where allowed (owner or root)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the trees are identical",
                "1:differences found (summary on stdout, the first " + CompareCommand.MAX_LISTED + " on stderr, all in the report)",
                "2:usage error, or some entries could not be read and compared (listed on stderr and in the report)"})
final class CompareCommand implements Callable<Integer> {
    static final int MAX_LISTED = FailureLines.MAX_LISTED;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SRC", description = "The tree copied from (or the expected one).")
    String source;

    @Parameters(index = "1", paramLabel = "DST", description = "The tree to check against SRC.")
    String destination;

    @Option(names = "--master", paramLabel = "URL",
            description = "Spark master, local[*] included (default: the one spark-submit was given; run directly, "
                    + "threads in this JVM, without starting Spark).")
    String master;

    @Option(names = "--contents", description = "Also read and compare the bytes of files of equal size.")
    boolean contents;

    @Option(names = "--xattrs", paramLabel = "none|all|non-lustre|libattr", defaultValue = "non-lustre",
            description = "Extended attributes to compare (ACLs included), by the copy's policies. Default: ${DEFAULT-VALUE}.")
    String xattrs;

    @Option(names = "--no-projid", description = "Do not compare project IDs and PROJINHERIT.")
    boolean noProjectIds;

    @Option(names = "--time-window", paramLabel = "DURATION", defaultValue = "0", converter = DurationConverter.class,
            description = "Mtimes less than this apart count as equal (like rsync's --modify-window), for a DST on a file "
                    + "system that keeps coarser times: 1s, 2s (FAT), 1us. Default: 0, to the nanosecond.")
    long timeWindowNanos;

    @Option(names = "--report", paramLabel = "FILE", description = "Also write the report, every difference listed, as JSON to FILE.")
    Path reportFile;

    @Option(names = "--batch-files", paramLabel = "N", defaultValue = "2000",
            description = "Entries per task at most. Default: ${DEFAULT-VALUE}.")
    int batchFiles;

    @Option(names = "--batch-bytes", paramLabel = "SIZE", defaultValue = CopyCommand.DEFAULT_BATCH_BYTES, converter = SizeConverter.class,
            description = "With --contents, file bytes per task at most. Default: ${DEFAULT-VALUE}.")
    long batchBytes;

    @Option(names = "--chunk-size", paramLabel = "SIZE", defaultValue = CopyCommand.DEFAULT_CHUNK_SIZE, converter = SizeConverter.class,
            description = "With --contents, files larger than this are compared in chunks of this size by several tasks. "
                    + "Default: ${DEFAULT-VALUE}.")
    long chunkSize;

    @Option(names = "--walk", paramLabel = "auto|driver|distributed", defaultValue = "auto",
            description = "Where the trees are listed: by the driver's threads, or by the executors; auto: on the "
                    + "executors when the master is a cluster. Default: ${DEFAULT-VALUE}.")
    String walk;

    @Option(names = "--walk-threads", paramLabel = "N", description = "Threads listing each tree (default: twice the CPUs, from 4 to 32).")
    Integer walkThreads;

    @Option(names = "--threads-per-task", paramLabel = "N", defaultValue = "1",
            description = "Entries each task compares at once, each by its own thread: hides per-call latency "
                    + "on file systems such as Lustre. Default: ${DEFAULT-VALUE}.")
    int threadsPerTask;

    @Option(names = "--verbose", description = "Log Spark's INFO messages too (default: warnings only).")
    boolean verbose;

    @Override
    public Integer call() {
        PreparedCompare compare;
        try {
            compare = SparkDcp.prepareCompare(source, destination, request());
            if (reportFile != null) CopyCommand.checkReportTarget(reportFile);
        } catch (UsageException | IllegalArgumentException e) {
            return usageError(e.getMessage());
        }
        if (verbose) Logging.verbose();
        CompareResult result;
        try {
            result = wantsSpark() ? SparkContexts.compare(master, compare) : compare.runInProcess();
        } catch (SparkContexts.CannotStart e) {
            return usageError("cannot start Spark: " + e.getMessage());
        } catch (UsageException e) {
            return usageError(e.getMessage());
        }
        return finish(result);
    }

    private boolean wantsSpark() {
        return master != null || System.getProperty("spark.master") != null;
    }

    private CopyRequest request() {
        PrintWriter err = spec.commandLine().getErr();
        CopyRequest.Builder request = CopyRequest.builder().xattrs(xattrs).projectIds(!noProjectIds).contents(contents)
                .timeWindow(Duration.ofNanos(timeWindowNanos)).batchFiles(batchFiles).batchBytes(batchBytes).chunkSize(chunkSize).walk(walk).threadsPerTask(threadsPerTask)
                .messages(line -> {
                    err.println("spark-dcp: " + line);
                    err.flush();
                });
        if (walkThreads != null) request.walkThreads(walkThreads);
        return request.build();
    }

    private int finish(CompareResult result) {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        out.print(result);
        out.flush();
        printCapped(err, "differs", result.differenceLines());
        printCapped(err, "failed", result.failureLines());
        if (reportFile != null) {
            try {
                result.writeJson(reportFile);
            } catch (IOException e) {
                err.println("spark-dcp: cannot write the report " + reportFile + ": " + e);
                err.flush();
                return Main.EXIT_USAGE; // not 1, which says "different"
            }
        }
        return result.exitCode();
    }

    private static void printCapped(PrintWriter err, String kind, List<String> lines) {
        int shown = Math.min(lines.size(), MAX_LISTED);
        for (String line : lines.subList(0, shown)) err.println("spark-dcp: " + kind + ": " + line);
        if (lines.size() > shown)
            err.printf("spark-dcp: %s: %,d more not listed here (the JSON report of --report FILE lists them)%n", kind, lines.size() - shown);
        err.flush();
    }

    private int usageError(String reason) {
        PrintWriter err = spec.commandLine().getErr();
        err.println("spark-dcp: " + reason);
        err.flush();
        return Main.EXIT_USAGE;
    }
}

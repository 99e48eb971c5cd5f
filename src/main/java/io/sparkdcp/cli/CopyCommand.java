package io.sparkdcp.cli;

import io.sparkdcp.api.CopyRequest;
import io.sparkdcp.api.DriverOutOfMemoryException;
import io.sparkdcp.api.PreparedCopy;
import io.sparkdcp.api.CopyResult;
import io.sparkdcp.api.SparkDcp;
import io.sparkdcp.copy.CopyModes;
import io.sparkdcp.copy.MetadataAccess;
import io.sparkdcp.copy.XattrPolicy;
import io.sparkdcp.job.JobOptions;
import io.sparkdcp.job.UsageException;
import io.sparkdcp.job.WalkMode;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.report.ReportJson;
import io.sparkdcp.report.ReportText;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code spark-dcp copy SRC DST}. Everything is checked before Spark starts and before DST is
 * created, so a usage error (exit 2) leaves no trace.
 */
@Command(name = "copy", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class, sortOptions = false,
        description = {"Copy the contents of SRC into DST, keeping all metadata: like cp -a SRC/. DST, "
                + "with project IDs. DST is created if missing.",
                "Entries already identical at DST are skipped, so running the same copy again resumes it."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:everything copied or already identical",
                "1:some entries failed (listed on stderr and in the report); the rest was copied. "
                        + "Also when the run itself stopped, or the report could not be written",
                "2:usage error or impossible request; nothing was written",
                "3:the driver ran out of memory; the run stopped at once (run it again with more to resume)"})
class CopyCommand implements Callable<Integer> {
    /** Help shows these words; CopyCommandUsageTest checks they equal JobOptions' defaults. */
    static final String DEFAULT_BATCH_BYTES = "1G";
    static final String DEFAULT_CHUNK_SIZE = "256M";
    static final int DEFAULT_PROGRESS_SECONDS = 5;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SRC", description = "Source directory.")
    String source;

    @Parameters(index = "1", paramLabel = "DST", description = "Destination directory (created if missing).")
    String destination;

    @Option(names = "--master", paramLabel = "URL",
            description = "Spark master, local[*] included (default: the one spark-submit was given; run directly, "
                    + "the same job on threads in this JVM, without starting Spark).")
    String master;

    @Option(names = "--xattrs", paramLabel = "none|all|non-lustre|libattr", defaultValue = "non-lustre",
            converter = XattrPolicyConverter.class,
            description = "Extended attributes to copy (ACLs included): non-lustre skips those Lustre manages itself, "
                    + "libattr those /etc/xattr.conf marks skip. Default: ${DEFAULT-VALUE}.")
    XattrPolicy xattrs;

    @Option(names = "--xattr-access", paramLabel = "fd|path", defaultValue = "fd", converter = MetadataAccessConverter.class,
            description = "Read and write xattrs and project IDs on the file descriptors the copy holds (fd), "
                    + "or by path with a second open of each file (path: slower, for comparison). Default: ${DEFAULT-VALUE}.")
    MetadataAccess access;

    @Option(names = "--no-projid", description = "Do not copy project IDs and the PROJINHERIT flag.")
    boolean noProjectIds;

    @Option(names = "--report", paramLabel = "FILE", description = "Also write the report as JSON to FILE.")
    Path reportFile;

    @Option(names = "--batch-files", paramLabel = "N", defaultValue = "" + JobOptions.DEFAULT_BATCH_FILES,
            description = "Entries per task at most. Default: ${DEFAULT-VALUE}.")
    int batchFiles;

    @Option(names = "--batch-bytes", paramLabel = "SIZE", defaultValue = DEFAULT_BATCH_BYTES, converter = SizeConverter.class,
            description = "File bytes per task at most (K, M, G, T: binary units). Default: ${DEFAULT-VALUE}.")
    long batchBytes;

    @Option(names = "--chunk-size", paramLabel = "SIZE", defaultValue = DEFAULT_CHUNK_SIZE, converter = SizeConverter.class,
            description = "Files larger than this are copied in chunks of this size by several tasks. Default: ${DEFAULT-VALUE}.")
    long chunkSize;

    @Option(names = "--walk-threads", paramLabel = "N",
            description = "Threads listing the source, on the driver or in each walk task (default: twice the CPUs, from 4 to 32, "
                    + "or the CPUs times --threads-per-task, up to 64, when that is more).")
    Integer walkThreads;

    @Option(names = "--walk", paramLabel = "auto|driver|distributed", defaultValue = "auto", converter = WalkModeConverter.class,
            description = "Where SRC is listed: by the driver's threads, or by the executors in rounds of subtrees "
                    + "(for huge trees); auto: on the executors when the master is a cluster. Default: ${DEFAULT-VALUE}.")
    WalkMode walk;

    @Option(names = "--save-listing", paramLabel = "DIR",
            description = "Save the listing of SRC in DIR (a Hadoop SequenceFile; any Hadoop path) for later runs' --listing.")
    String saveListing;

    @Option(names = "--listing", paramLabel = "DIR",
            description = "Copy from the listing an earlier run saved in DIR instead of walking SRC: "
                    + "entries SRC gained since are not copied.")
    String reuseListing;

    @Option(names = "--threads-per-task", paramLabel = "N", defaultValue = "1",
            description = "Files each task copies at once, each by its own thread: hides per-call latency "
                    + "on file systems such as Lustre. Default: ${DEFAULT-VALUE}.")
    int threadsPerTask;

    @Option(names = "--progress", paramLabel = "SECONDS",
            description = "Print entries and bytes done, rate and ETA on stderr every SECONDS while copying; 0: never "
                    + "(default: every " + DEFAULT_PROGRESS_SECONDS + " s when run on a terminal, else never).")
    Integer progressSeconds;

    @Mixin
    WriteOptions write;

    @Option(names = "--verbose", description = "Log Spark's INFO messages too (default: warnings only).")
    boolean verbose;

    @Override
    public Integer call() {
        PreparedCopy copy;
        try {
            copy = SparkDcp.prepare(source, destination, request());
            if (reportFile != null) checkReportTarget(reportFile);
        } catch (UsageException | IllegalArgumentException e) {
            return usageError(e.getMessage());
        }
        Integer withoutSpark = runWithoutSpark(copy);
        if (withoutSpark != null) return withoutSpark;
        if (verbose) Logging.verbose();
        OutOfMemoryExit.showTrace(verbose);
        try {
            return finish((wantsSpark() ? SparkContexts.run(master, onSpark(copy)) : runInProcess(copy)).report());
        } catch (SparkContexts.CannotStart e) {
            return usageError("cannot start Spark: " + e.getMessage());
        } catch (UsageException e) {
            return usageError(e.getMessage());
        } catch (DriverOutOfMemoryException e) {
            return outOfMemory(e);
        }
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

    /** A run that needs neither Spark nor a destination (sync --dry-run) returns its exit code here; null otherwise. */
    Integer runWithoutSpark(PreparedCopy copy) {
        return null;
    }

    CopyModes modes() {
        return write.modes(false, false);
    }

    private CopyRequest request() {
        PrintWriter err = spec.commandLine().getErr();
        CopyRequest.Builder request = CopyRequest.builder().xattrs(xattrs).access(access).projectIds(!noProjectIds)
                .batchFiles(batchFiles).batchBytes(batchBytes).chunkSize(chunkSize).threadsPerTask(threadsPerTask).modes(modes())
                .walk(walk).listing(reuseListing).saveListing(saveListing)
                .progressSeconds(progressSeconds != null ? progressSeconds : onTerminal())
                .messages(line -> {
                    err.println("spark-dcp: " + line);
                    err.flush();
                });
        if (walkThreads != null) request.walkThreads(walkThreads);
        return request.build();
    }

    /** Progress by default only for a person watching: System.console() is null when piped or redirected. */
    private static int onTerminal() {
        return System.console() != null ? DEFAULT_PROGRESS_SECONDS : 0;
    }

    /** Found out now, not after hours of copying. */
    static void checkReportTarget(Path file) {
        Path target = file.toAbsolutePath();
        if (Files.isDirectory(target)) throw new UsageException("report " + file + " is a directory");
        Path dir = target.getParent();
        if (!Files.isDirectory(dir)) throw new UsageException("report directory " + dir + " does not exist");
        if (!Files.isWritable(dir)) throw new UsageException("report directory " + dir + " is not writable");
    }

    private int finish(CopyReport report) {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        out.print(ReportText.render(report));
        out.flush();
        FailureLines.print(err, "skipped", report.counts().notices(), report.counts().notices().size());
        FailureLines.print(err, "failed", report.counts().failures(), report.counts().failed());
        if (reportFile != null) {
            try {
                ReportJson.write(report, reportFile);
            } catch (IOException e) {
                err.println("spark-dcp: cannot write the report " + reportFile + ": " + e);
                err.flush();
                return spec.exitCodeOnExecutionException();
            }
        }
        return report.exitCode();
    }

    private int outOfMemory(DriverOutOfMemoryException e) {
        PrintWriter err = spec.commandLine().getErr();
        if (verbose) e.printStackTrace(err);
        err.println("spark-dcp: " + e.getMessage());
        err.flush();
        return Main.EXIT_OUT_OF_MEMORY;
    }

    private int usageError(String reason) {
        PrintWriter err = spec.commandLine().getErr();
        err.println("spark-dcp: " + reason);
        err.flush();
        return Main.EXIT_USAGE;
    }
}

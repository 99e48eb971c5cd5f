package io.sparkdcp.cli;

import io.sparkdcp.copy.CopyModes;
import io.sparkdcp.copy.CopyOptions;
import io.sparkdcp.copy.MetadataAccess;
import io.sparkdcp.copy.XattrPolicy;
import io.sparkdcp.job.CopyJob;
import io.sparkdcp.job.JobOptions;
import io.sparkdcp.job.PhaseRunner;
import io.sparkdcp.job.Roots;
import io.sparkdcp.job.UsageException;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.report.ReportJson;
import io.sparkdcp.report.ReportText;
import io.sparkdcp.spark.SparkPhaseRunner;
import org.apache.spark.api.java.JavaSparkContext;
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
import java.util.function.Consumer;

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
                "2:usage error or impossible request; nothing was written"})
class CopyCommand implements Callable<Integer> {
    /** Help shows these words; CopyCommandUsageTest checks they equal JobOptions' defaults. */
    static final String DEFAULT_BATCH_BYTES = "1G";
    static final String DEFAULT_CHUNK_SIZE = "256M";

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SRC", description = "Source directory.")
    String source;

    @Parameters(index = "1", paramLabel = "DST", description = "Destination directory (created if missing).")
    String destination;

    @Option(names = "--master", paramLabel = "URL",
            description = "Spark master (default: " + SparkContexts.DEFAULT_MASTER + ", or the one spark-submit was given).")
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

    @Mixin
    WriteOptions write;

    @Option(names = "--walk-threads", paramLabel = "N",
            description = "Threads listing the source on the driver (default: twice the CPUs, from 4 to 32).")
    Integer walkThreads;

    @Override
    public Integer call() {
        Roots roots;
        JobOptions job;
        try {
            roots = Roots.check(source, destination);
            job = jobOptions(roots);
            if (reportFile != null) checkReportTarget(reportFile);
        } catch (UsageException | IllegalArgumentException e) {
            return usageError(e.getMessage());
        }
        Integer withoutSpark = runWithoutSpark(roots, job);
        if (withoutSpark != null) return withoutSpark;
        JavaSparkContext sc;
        try {
            sc = SparkContexts.start(master);
        } catch (Exception e) { // Spark's own exceptions are checked ones Scala does not declare
            return usageError("cannot start Spark: " + e.getMessage());
        }
        try {
            PhaseRunner runner;
            try {
                runner = new SparkPhaseRunner(sc);
                roots.createDestination();
            } catch (UsageException e) {
                return usageError(e.getMessage());
            }
            PrintWriter err = spec.commandLine().getErr();
            CopyReport report = runJob(job, runner, line -> {
                err.println("spark-dcp: " + line);
                err.flush();
            });
            return finish(report);
        } finally {
            sc.stop();
        }
    }

    /** The job itself; sync overrides it. */
    CopyReport runJob(JobOptions job, PhaseRunner runner, Consumer<String> log) {
        return new CopyJob(job, runner, log).run();
    }

    /** A run that needs neither Spark nor a destination (sync --dry-run) returns its exit code here; null otherwise. */
    Integer runWithoutSpark(Roots roots, JobOptions job) {
        return null;
    }

    CopyModes modes() {
        return write.modes(false, false);
    }

    private JobOptions jobOptions(Roots roots) {
        CopyOptions copy = new CopyOptions(roots.sourceBytes(), roots.destinationBytes(), xattrs, access, !noProjectIds,
                chunkSize, modes());
        return new JobOptions(copy, batchFiles, batchBytes, walkThreads != null ? walkThreads : JobOptions.defaultWalkThreads());
    }

    /** Found out now, not after hours of copying. */
    private static void checkReportTarget(Path file) {
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

    private int usageError(String reason) {
        PrintWriter err = spec.commandLine().getErr();
        err.println("spark-dcp: " + reason);
        err.flush();
        return Main.EXIT_USAGE;
    }
}

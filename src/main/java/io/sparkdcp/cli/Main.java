package io.sparkdcp.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The {@code spark-dcp} command; its subcommands do the work. The only place that exits the JVM,
 * except as the driver of YARN's cluster mode ({@link ApplicationMasterExit}).
 */
@Command(name = "spark-dcp", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = "Distributed POSIX copy on Apache Spark that keeps every piece of metadata, project IDs included.",
        subcommands = {CopyCommand.class, SyncCommand.class, BenchCommand.class, ScaleBenchCommand.class, HelpCommand.class})
public final class Main implements Runnable {
    /** Usage errors and impossible requests: nothing was written. picocli's own default for invalid input. */
    public static final int EXIT_USAGE = 2;
    /** The driver ran out of memory (HotSpot's code for -XX:+ExitOnOutOfMemoryError, too); the run stopped at once. */
    public static final int EXIT_OUT_OF_MEMORY = 3;
    private static final String NO_CLOSURES = "picocli.disable.closures";

    @Spec
    CommandSpec spec;

    /** Reached only without a subcommand: a usage error like any other, not an empty success. */
    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "missing command (copy, sync, bench or scale-bench)");
    }

    /** The command line with one-line error messages, as the launcher runs it. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Main());
        cl.setParameterExceptionHandler(ShortErrors::invalidInput);
        cl.setExecutionExceptionHandler(ShortErrors::unexpected);
        return cl;
    }

    /** @throws Exception only as YARN's cluster-mode driver: a failed run's exit code, for the ApplicationMaster */
    public static void main(String[] args) throws Exception {
        OutOfMemoryExit.install();
        // picocli looks for Groovy's Closure class, a miss that makes the JVM open every jar on the class path.
        if (System.getProperty(NO_CLOSURES) == null) System.setProperty(NO_CLOSURES, "true");
        int exitCode = commandLine().execute(args);
        if (isDriverInApplicationMaster()) ApplicationMasterExit.finish(exitCode);
        else System.exit(exitCode);
    }

    /** YARN's ApplicationMaster sets both before it calls this main on a thread of its own. */
    static boolean isDriverInApplicationMaster() {
        return "cluster".equals(System.getProperty("spark.submit.deployMode")) && System.getProperty("spark.yarn.app.id") != null;
    }
}

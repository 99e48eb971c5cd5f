package io.sparkdcp.cli;

import io.sparkdcp.api.NativeCalls;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * The {@code spark-dcp} command; its subcommands do the work. The only place that exits the JVM,
 * except as the driver of YARN's cluster mode ({@link ApplicationMasterExit}).
 */
@Command(name = "spark-dcp", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = "Distributed POSIX copy on Apache Spark that keeps every piece of metadata, project IDs included.")
public final class Main implements Runnable {
    /** Usage errors and impossible requests: nothing was written. picocli's own default for invalid input. */
    public static final int EXIT_USAGE = 2;
    /** The driver ran out of memory (HotSpot's code for -XX:+ExitOnOutOfMemoryError, too); the run stopped at once. */
    public static final int EXIT_OUT_OF_MEMORY = 3;
    /** SIGTERM, SIGINT or SIGHUP ended the run (rsync's code for them); a re-run resumes. */
    public static final int EXIT_INTERRUPTED = 20;
    private static final String NO_CLOSURES = "picocli.disable.closures";

    @Spec
    CommandSpec spec;

    /** Reached only without a subcommand: a usage error like any other, not an empty success. */
    @Override
    public void run() {
        List<String> names = subcommands();
        throw new ParameterException(spec.commandLine(), "missing command: " + String.join(", ", names.subList(0, names.size() - 1))
                + " or " + names.get(names.size() - 1));
    }

    /**
     * The product's own subcommands, help aside: also the ones that call libc in this JVM, which they
     * bind while picocli parses their options.
     */
    private static final List<String> COPIES = List.of("copy", "sync", "compare");

    /** The names of the subcommands, in the order help lists them: the product's, those of the modules on the class path, help. */
    static List<String> subcommands() {
        List<String> names = new ArrayList<>(COPIES);
        names.addAll(ModuleCommands.found().keySet());
        names.add("help");
        return names;
    }

    /** The command line with one-line error messages and every subcommand. */
    public static CommandLine commandLine() {
        return configured(withEverySubcommand());
    }

    /** The command line with every subcommand (and the absent bench's unlisted stand-ins) and picocli's own error handling. */
    static CommandLine withEverySubcommand() {
        CommandLine cl = new CommandLine(new Main());
        for (String name : COPIES) cl.addSubcommand(name, subcommand(copy(name)));
        Map<String, ServiceLoader.Provider<ModuleCommand>> modules = ModuleCommands.found();
        modules.forEach((name, command) -> cl.addSubcommand(name, subcommand(command.get())));
        for (String name : ModuleCommands.BENCH) {
            if (!modules.containsKey(name)) cl.addSubcommand(name, new ModuleCommands.Missing(name));
        }
        cl.addSubcommand("help", new HelpCommand());
        return cl;
    }

    /**
     * The command line for these arguments, as the launcher runs it: when the first names a subcommand,
     * with that one alone (picocli's model of each subcommand costs start-up CPU time: a copy's fixed
     * cost is under a second), otherwise with all of them (help, usage errors).
     */
    static CommandLine commandLine(String[] args) {
        if (args.length == 0 || args[0].equals("help") || args[0].startsWith("-")) return commandLine();
        Object one = COPIES.contains(args[0]) ? copy(args[0]) : ModuleCommands.command(args[0]);
        if (one == null) return commandLine();
        CommandLine cl = new CommandLine(new Main());
        cl.addSubcommand(args[0], subcommand(one));
        return configured(cl);
    }

    /** The named subcommand with its options, the option table's included (a module's too, when it holds the engine options). */
    private static CommandLine subcommand(Object command) {
        return TableOptions.addTo(new CommandLine(command));
    }

    private static Object copy(String name) {
        return switch (name) {
            case "copy" -> new CopyCommand();
            case "sync" -> new SyncCommand();
            case "compare" -> new CompareCommand();
            default -> throw new IllegalArgumentException("no subcommand " + name);
        };
    }

    private static CommandLine configured(CommandLine cl) {
        // An argument that begins with @ is a path, as for cp and rsync: picocli would otherwise replace it by the
        // arguments in the file named after the @ (SRC "@data/" read the file "data/", a file's lines became options).
        cl.setExpandAtFiles(false);
        cl.setParameterExceptionHandler(ShortErrors::invalidInput);
        cl.setExecutionExceptionHandler(ShortErrors::unexpected);
        return cl;
    }

    /** @throws Exception only as YARN's cluster-mode driver: a failed run's exit code, for the ApplicationMaster */
    public static void main(String[] args) throws Exception {
        // The signals' handlers first: a run interrupted at any moment ends with its line, its report and exit 20.
        if (args.length > 0 && COPIES.contains(args[0]) && !isDriverInApplicationMaster()) Interruption.install();
        if (args.length > 0 && COPIES.contains(args[0])) NativeCalls.bindInBackground();
        OutOfMemoryExit.install();
        // picocli looks for Groovy's Closure class, a miss that makes the JVM open every jar on the class path.
        if (System.getProperty(NO_CLOSURES) == null) System.setProperty(NO_CLOSURES, "true");
        RawArguments.Taken taken = RawArguments.take(args);
        if (taken.refusal() != null) System.err.println("spark-dcp: " + taken.refusal());
        int runs;
        try {
            runs = taken.refusal() != null ? EXIT_USAGE : commandLine(taken.escaped()).setErr(StatusLines.STDERR).execute(taken.escaped());
        } catch (LinkageError e) { // libc's calls could not be bound: the run could not start
            System.err.println("spark-dcp: " + ShortErrors.cannotBind(e));
            runs = EXIT_USAGE;
        }
        int exitCode = Interruption.exitCode(runs);
        if (isDriverInApplicationMaster()) ApplicationMasterExit.finish(exitCode);
        else System.exit(exitCode);
    }

    /** YARN's ApplicationMaster sets both before it calls this main on a thread of its own. */
    static boolean isDriverInApplicationMaster() {
        return "cluster".equals(System.getProperty("spark.submit.deployMode")) && System.getProperty("spark.yarn.app.id") != null;
    }
}

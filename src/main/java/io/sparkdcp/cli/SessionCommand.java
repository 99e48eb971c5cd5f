package io.sparkdcp.cli;

import io.sparkdcp.api.DryRun;
import io.sparkdcp.api.RunResult;
import org.apache.spark.api.java.JavaSparkContext;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * copy, sync or compare on a Spark context the caller owns (a PySpark session, through py4j), given as the
 * CLI's own arguments: picocli's model of the command parses and checks them, so the option names, defaults
 * and messages are the CLI's and cannot drift. What the run says is kept for the caller to show (a notebook
 * shows it in the cell, not on the JVM's stderr): messages in order, progress as its latest line.
 */
public final class SessionCommand {
    /** Options that make no sense on a caller's session: it has its master, and help goes elsewhere. */
    private static final List<String> NOT_ON_A_SESSION = List.of("--master", "--help", "--version", "--human-readable",
            "--archive", "--recursive", "--info");
    /** Progress without --progress: a notebook redraws its line, so it may move often (the heartbeat permitting). */
    static final long PROGRESS_SECONDS = 2;

    /** Where the run's lines go, and the progress interval without --progress. */
    record Shown(Consumer<String> messages, Consumer<String> progress, long progressSeconds) {}

    private final String name;
    private final Object command;
    private final List<String> messages = new ArrayList<>();
    private String progress;

    private SessionCommand(String name, Object command) {
        this.name = name;
        this.command = command;
        Shown shown = new Shown(this::message, this::progress, PROGRESS_SECONDS);
        if (command instanceof CopyCommand c) c.shownTo = shown;
        else ((CompareCommand) command).shownTo = shown;
    }

    /**
     * The long options of copy, sync or compare that a session takes, each with whether it takes a value
     * (false: a flag). Their snake-case names are the Python keywords.
     */
    public static Map<String, Boolean> options(String name) {
        Map<String, Boolean> options = new LinkedHashMap<>();
        for (OptionSpec o : commandLine(name).getSubcommands().get(name).getCommandSpec().options()) {
            if (NOT_ON_A_SESSION.contains(o.longestName()) || !o.longestName().startsWith("--")) continue;
            options.put(o.longestName(), o.arity().max() > 0);
        }
        return options;
    }

    /**
     * Parses {@code args} (options, then {@code --}, SRC... DST) as {@code spark-dcp NAME} does and checks the
     * roots, without writing anything.
     *
     * @throws IllegalArgumentException the CLI's one line ({@code spark-dcp: ...}) for a usage error
     */
    public static SessionCommand parse(String name, String[] args) {
        if (!List.of("copy", "sync", "compare").contains(name)) throw new IllegalArgumentException("spark-dcp: no command " + name);
        CommandLine cl = commandLine(name);
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err));
        String[] full = new String[args.length + 1];
        full[0] = name;
        System.arraycopy(args, 0, full, 1, args.length);
        for (String arg : args) {
            if (arg.equals("--")) break; // SRC... DST follow: any name
            for (String option : NOT_ON_A_SESSION)
                if (arg.equals(option) || arg.startsWith(option + "=")) throw new IllegalArgumentException(
                        "spark-dcp: " + option + " is not taken on a session (it runs on the session's own Spark)");
        }
        CommandLine sub = cl.getSubcommands().get(name);
        try {
            cl.parseArgs(full);
            if (sub.getCommand() instanceof CopyCommand c) {
                c.output.check();
                if (c.paths.size() < 2) throw new IllegalArgumentException("spark-dcp: " + c.missingDestination());
            } else {
                ((CompareCommand) sub.getCommand()).output.check();
            }
        } catch (ParameterException e) {
            ShortErrors.invalidInput(e, full);
            throw new IllegalArgumentException(err.toString().strip());
        }
        return new SessionCommand(name, sub.getCommand());
    }

    /**
     * Runs on the caller's context, never stopping it: a {@code CopyResult}, a {@code CompareResult}, or with
     * {@code --dry-run} a {@code DryRun}. A {@code --report} FILE is written as the CLI writes it.
     *
     * @throws IllegalArgumentException {@code spark-dcp: } and the reason for a request that cannot be carried out
     *                                  (SRC missing, DST inside SRC): nothing was written
     */
    public Object run(JavaSparkContext sc) throws IOException {
        try {
            if (command instanceof CopyCommand c) {
                var copy = c.prepare();
                if (c.dryRun) return copy.dryRun(sc, c.deletes());
                return written(c.onSpark(copy).run(sc), c.reportFile);
            }
            CompareCommand c = (CompareCommand) command;
            return written(c.prepare().run(sc), c.reportFile);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("spark-dcp: " + e.getMessage(), e);
        }
    }

    /** The command's name: copy, sync or compare. */
    public String name() {
        return name;
    }

    /** Whether {@link #run} makes a plan only. */
    public boolean dryRun() {
        return command instanceof CopyCommand c && c.dryRun;
    }

    /** The messages said since the last call, in order. */
    public synchronized String[] takeMessages() {
        String[] taken = messages.toArray(String[]::new);
        messages.clear();
        return taken;
    }

    /** The latest progress line; null before the first. */
    public synchronized String progressLine() {
        return progress;
    }

    /** The plan's lines (dry run), as the CLI prints them on stdout and stderr. */
    public static String problems(Object result) {
        StringWriter lines = new StringWriter();
        PrintWriter err = new PrintWriter(lines);
        if (result instanceof DryRun plan) plan.printProblems(err);
        else ((RunResult) result).printProblems(err);
        err.flush();
        return lines.toString();
    }

    private static RunResult written(RunResult result, String reportFile) throws IOException {
        if (reportFile != null) result.writeJson(RawArguments.bytes(reportFile));
        return result;
    }

    private synchronized void message(String line) {
        messages.add(line);
    }

    private synchronized void progress(String line) {
        progress = line;
    }

    private static CommandLine commandLine(String name) {
        return Main.commandLine(new String[] {name});
    }
}

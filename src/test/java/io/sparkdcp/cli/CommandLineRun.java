package io.sparkdcp.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** One in-process run of the CLI with its output captured. */
record CommandLineRun(int exitCode, String out, String err) {

    /** As the tests of other packages drive it: a plain CommandLine around Main. */
    static CommandLineRun of(String... args) {
        return on(Main.withEverySubcommand(), args);
    }

    /** As the launcher runs it, with the one-line error messages. */
    static CommandLineRun asLaunched(String... args) {
        return on(Main.commandLine(), args);
    }

    /** As Main.main parses these arguments: with the named command's model alone. */
    static CommandLineRun asMainRunsIt(String... args) {
        return on(Main.commandLine(args), args);
    }

    /** Runs args (the command first) with {@code --report report} after the command's name; it must exit 0. Returns the report. */
    static JsonNode succeeded(Path report, String... args) throws IOException {
        List<String> all = new ArrayList<>(List.of(args[0], "--report", report.toString()));
        all.addAll(List.of(args).subList(1, args.length));
        CommandLineRun run = of(all.toArray(String[]::new));
        assertEquals(0, run.exitCode(), String.join(" ", all) + "\n" + run.out() + run.err());
        return new ObjectMapper().readTree(report.toFile());
    }

    private static CommandLineRun on(CommandLine cl, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new CommandLineRun(code, out.toString(), err.toString());
    }
}

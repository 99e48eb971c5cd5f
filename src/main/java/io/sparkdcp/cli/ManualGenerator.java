package io.sparkdcp.cli;

import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IllegalFormatException;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The man page (troff), the option reference (Markdown, docs/options.md) and the bash completion, all
 * from picocli's model of the commands, so that none can say other than what the parser takes. Run by
 * the build ({@code package}) for the distribution; the bench's commands are left out (their module is
 * not part of it).
 * <pre>ManualGenerator [--man FILE] [--options FILE] [--completion FILE]</pre>
 */
public final class ManualGenerator {
    private static final String NAME = "spark-dcp";

    private final CommandLine root;

    ManualGenerator(CommandLine root) {
        this.root = root;
    }

    /** The product's commands: every subcommand but those of modules and the bench module's stand-ins. */
    static ManualGenerator ofProduct() {
        CommandLine root = Main.withEverySubcommand();
        List<String> modules = root.getSubcommands().entrySet().stream()
                .filter(e -> e.getValue().getCommand() instanceof ModuleCommands.Missing || e.getValue().getCommand() instanceof ModuleCommand)
                .map(Map.Entry::getKey).toList();
        modules.forEach(root.getCommandSpec()::removeSubcommand);
        return new ManualGenerator(root);
    }

    public static void main(String[] args) throws IOException {
        ManualGenerator manual = ofProduct();
        if (args.length % 2 != 0) usage();
        for (int i = 0; i < args.length; i += 2) {
            String text = switch (args[i]) {
                case "--man" -> manual.troff(new VersionProvider().getVersion()[0]);
                case "--options" -> manual.optionsMarkdown();
                case "--completion" -> manual.completion();
                default -> usage();
            };
            Path file = Path.of(args[i + 1]);
            if (file.getParent() != null) Files.createDirectories(file.getParent());
            Files.writeString(file, text, StandardCharsets.UTF_8);
        }
    }

    private static String usage() {
        System.err.println("usage: ManualGenerator [--man FILE] [--options FILE] [--completion FILE]");
        System.exit(Main.EXIT_USAGE);
        return "";
    }

    /** bash's completion script: {@code source} it, or install it as share/bash-completion/completions/spark-dcp. */
    String completion() {
        return BashCompletion.script(NAME, root);
    }

    /** Every command, by name, with its own. */
    List<CommandSpec> commands() {
        List<CommandSpec> all = new ArrayList<>(List.of(root.getCommandSpec()));
        root.getSubcommands().values().forEach(sub -> all.add(sub.getCommandSpec()));
        return all;
    }

    // ---- troff ----

    /** @param version what the page's footer names, "spark-dcp 0.1.0" */
    String troff(String version) {
        StringBuilder out = new StringBuilder();
        out.append(".\\\" Generated from the picocli model by io.sparkdcp.cli.ManualGenerator: do not edit.\n");
        out.append(".TH SPARK-DCP 1 \"\" \"").append(version).append("\" \"User Commands\"\n");
        out.append(".SH NAME\n").append(NAME).append(" \\- ").append(troffText(firstSentence(root.getCommandSpec()))).append('\n');
        out.append(".SH SYNOPSIS\n");
        for (CommandSpec command : commands().subList(1, commands().size())) {
            out.append(".B ").append(NAME).append(' ').append(command.name()).append("\n[\\fIOPTION\\fR]...");
            for (PositionalParamSpec p : command.positionalParameters()) out.append(" \\fI").append(troffText(p.paramLabel())).append("\\fR");
            out.append("\n.br\n");
        }
        out.append(".SH DESCRIPTION\n");
        paragraphs(out, description(root.getCommandSpec()));
        out.append(".SH COMMANDS\n");
        for (CommandSpec command : commands().subList(1, commands().size())) {
            out.append(".SS ").append(troffText(NAME + ' ' + command.name())).append('\n');
            paragraphs(out, description(command));
            for (PositionalParamSpec p : command.positionalParameters()) item(out, "\\fI" + troffText(p.paramLabel()) + "\\fR", p);
            for (OptionSpec o : visibleOptions(command)) item(out, troffOption(o), o);
        }
        out.append(".SH OPTIONS OF ").append(troffText(NAME.toUpperCase())).append(" ITSELF\n");
        for (OptionSpec o : visibleOptions(root.getCommandSpec())) item(out, troffOption(o), o);
        out.append(".SH EXIT STATUS\n")
                .append(".TP\n.B 0\nEverything was copied, synced or found identical.\n")
                .append(".TP\n.B 1\nSome entries failed or differ; the report lists them.\n")
                .append(".TP\n.B 2\nA usage error, or the run could not start; nothing was written.\n")
                .append(".TP\n.B 3\nThe driver ran out of memory.\n")
                .append(".TP\n.B 20\nA signal (TERM, INT, HUP) ended the run; running it again resumes.\n");
        out.append(".SH FILES\n.TP\n.I ${XDG_CACHE_HOME:-~/.cache}/spark-dcp\n")
                .append("Class data archives of local copies (SPARK_DCP_CACHE_DIR sets another directory).\n");
        out.append(".SH EXAMPLES\n");
        for (CommandSpec command : commands().subList(1, commands().size())) {
            for (Example example : examples(command)) {
                out.append(".TP\n\\fB").append(troffText(example.command())).append("\\fR\n")
                        .append(troffLine(example.what())).append('\n');
            }
        }
        out.append(".SH SEE ALSO\n.BR rsync (1),\n.BR cp (1)\n");
        return out.toString();
    }

    /** A command line to type, and what it does. */
    record Example(String command, String what) {}

    /**
     * The examples of a command's help, its footer: each a line that starts with "spark-dcp ", then the
     * lines that say what it does.
     */
    static List<Example> examples(CommandSpec command) {
        List<Example> out = new ArrayList<>();
        String line = null;
        StringBuilder what = new StringBuilder();
        for (String text : formatted(command.usageMessage().footer())) {
            if (text.startsWith(NAME + " ")) {
                if (line != null) out.add(new Example(line, what.toString()));
                line = text;
                what.setLength(0);
            } else {
                if (line == null) throw new IllegalStateException(command.qualifiedName() + "'s examples start with no command: " + text);
                what.append(what.isEmpty() ? "" : " ").append(text);
            }
        }
        if (line != null) out.add(new Example(line, what.toString()));
        return out;
    }

    private static void item(StringBuilder out, String tag, ArgSpec arg) {
        out.append(".TP\n").append(tag).append('\n');
        List<String> lines = description(arg);
        for (int i = 0; i < lines.size(); i++) {
            if (i > 0) out.append(".br\n");
            out.append(troffLine(lines.get(i))).append('\n');
        }
    }

    private static void paragraphs(StringBuilder out, List<String> lines) {
        for (String line : lines) out.append(".PP\n").append(troffLine(line)).append('\n');
    }

    private static String troffOption(OptionSpec o) {
        StringBuilder tag = new StringBuilder();
        for (String name : o.names()) {
            if (!tag.isEmpty()) tag.append(", ");
            tag.append("\\fB").append(troffText(name)).append("\\fR");
        }
        if (o.arity().max() > 0) tag.append("=\\fI").append(troffText(o.paramLabel())).append("\\fR");
        return tag.toString();
    }

    /** A line of text: a leading . or ' would be a request. */
    private static String troffLine(String text) {
        String escaped = troffText(text);
        return escaped.startsWith(".") || escaped.startsWith("'") ? "\\&" + escaped : escaped;
    }

    private static String troffText(String text) {
        return text.replace("\\", "\\e").replace("-", "\\-");
    }

    // ---- Markdown ----

    String optionsMarkdown() {
        StringBuilder out = new StringBuilder();
        out.append("<!-- Generated from the picocli model by io.sparkdcp.cli.ManualGenerator: do not edit. Regenerate with\n")
                .append("     mvn -q -B -Dmaven.test.skip=true package && cp target/manual/options.md docs/options.md -->\n");
        out.append("# Options\n\n");
        out.append("Every command and option of `").append(NAME).append("`, as `").append(NAME)
                .append(" COMMAND --help` prints them (the same text is in the man page, `man spark-dcp`). ")
                .append("[usage.md](usage.md) explains them by task.\n");
        for (CommandSpec command : commands().subList(1, commands().size())) {
            out.append("\n## ").append(NAME).append(' ').append(command.name()).append("\n\n");
            out.append("    ").append(NAME).append(' ').append(command.name()).append(" [OPTION]...");
            for (PositionalParamSpec p : command.positionalParameters()) out.append(' ').append(p.paramLabel());
            out.append("\n\n");
            for (String line : description(command)) out.append(markdownText(line)).append("\n\n");
            if (!command.positionalParameters().isEmpty() || !visibleOptions(command).isEmpty()) {
                out.append("| option | meaning |\n|---|---|\n");
                for (PositionalParamSpec p : command.positionalParameters()) row(out, p.paramLabel(), p);
                for (OptionSpec o : visibleOptions(command)) row(out, markdownOption(o), o);
            }
        }
        out.append("\n## ").append(NAME).append(" itself\n\n| option | meaning |\n|---|---|\n");
        for (OptionSpec o : visibleOptions(root.getCommandSpec())) row(out, markdownOption(o), o);
        return out.toString();
    }

    private static void row(StringBuilder out, String name, ArgSpec arg) {
        out.append("| `").append(name.replace("|", "\\|")).append("` | ")
                .append(markdownText(String.join(" ", description(arg))).replace("|", "\\|")).append(" |\n");
    }

    private static String markdownOption(OptionSpec o) {
        String names = String.join(", ", o.names());
        return o.arity().max() > 0 ? names + "=" + o.paramLabel() : names;
    }

    /** Keeps `<` and `*` from being read as HTML or emphasis. */
    private static String markdownText(String text) {
        return text.replace("<", "&lt;").replace("*", "\\*").replace("_", "\\_");
    }

    // ---- the model's text ----

    /**
     * In the order of their names, as rsync's and cp's man pages list them: the model's own order follows
     * reflection (setter methods come in no fixed order), and a generated file must not change by itself.
     */
    private static List<OptionSpec> visibleOptions(CommandSpec command) {
        return command.options().stream().filter(o -> !o.hidden()).sorted(BY_NAME).toList();
    }

    static final Comparator<OptionSpec> BY_NAME = Comparator.comparing(
            (OptionSpec o) -> o.longestName().replaceFirst("^-+", "").toLowerCase(Locale.ROOT)).thenComparing(OptionSpec::longestName);

    private static String firstSentence(CommandSpec command) {
        String text = String.join(" ", description(command));
        int end = text.indexOf(". ");
        return end < 0 ? text.replaceAll("\\.$", "") : text.substring(0, end);
    }

    private static List<String> description(CommandSpec command) {
        return formatted(command.usageMessage().description());
    }

    /** The option's description as help prints it: variables (its default) filled in, %n a new line. */
    private static List<String> description(ArgSpec arg) {
        return formatted(arg.description());
    }

    private static List<String> formatted(String[] lines) {
        List<String> out = new ArrayList<>();
        for (String line : lines) {
            String text;
            try {
                text = String.format(line);
            } catch (IllegalFormatException e) {
                text = line;
            }
            for (String part : text.split("\n")) if (!part.isBlank()) out.add(part.strip());
        }
        return out;
    }
}

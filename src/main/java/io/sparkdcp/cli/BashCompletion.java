package io.sparkdcp.cli;

import picocli.CommandLine;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * bash's completion script, from picocli's model: commands, each command's options, the words an option
 * takes (its completion candidates, which the option table declares), and paths for the positional
 * parameters (SRC, DST) and for the values labelled FILE or DIR. picocli's own {@code AutoComplete}
 * completes paths only for options typed File or Path, and these are Strings (they carry bytes that
 * are not UTF-8), so it turned path completion off for every argument.
 */
final class BashCompletion {
    /** Labels of values that complete to nothing: there is no list of them to offer. */
    private static final Set<String> FREE_VALUES = Set.of("URL", "N", "SIZE", "PATTERN", "SECONDS", "DURATION");

    private BashCompletion() {}

    static String script(String name, CommandLine root) {
        String fn = "_" + name.replaceAll("[^A-Za-z0-9]", "_");
        List<String> commands = new ArrayList<>(root.getSubcommands().keySet());
        StringBuilder out = new StringBuilder();
        out.append("# Generated from the picocli model by io.sparkdcp.cli.ManualGenerator: do not edit.\n")
                .append("# bash completion for ").append(name)
                .append(": source it, or install it as share/bash-completion/completions/").append(name).append(".\n\n");
        out.append(fn).append("_words() { COMPREPLY=($(compgen -W \"$1\" -- \"$cur\")); }\n\n");
        out.append("# -f: files and directories, -d: directories; quoted and marked as readline does for file names.\n")
                .append(fn).append("_paths() { compopt -o filenames 2>/dev/null; local IFS=$'\\n'; COMPREPLY=($(compgen \"$1\" -- \"$cur\")); }\n\n");
        out.append(fn).append("() {\n")
                .append("  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} command= i\n")
                .append("  # --option=value: bash makes '=' a word of its own.\n")
                .append("  if [[ $cur == = ]]; then cur=; elif [[ $prev == = ]]; then prev=${COMP_WORDS[COMP_CWORD-2]}; fi\n")
                .append("  for ((i = 1; i < COMP_CWORD; i++)); do\n")
                .append("    if [[ ${COMP_WORDS[i]} != -* ]]; then command=${COMP_WORDS[i]}; break; fi\n")
                .append("  done\n")
                .append("  case $command in\n")
                .append("    '')\n")
                .append("      if [[ $cur == -* ]]; then ").append(fn).append("_words ").append(words(optionNames(root.getCommandSpec())))
                .append("; else ").append(fn).append("_words ").append(words(commands)).append("; fi\n")
                .append("      ;;\n");
        root.getSubcommands().forEach((command, sub) -> {
            out.append("    ").append(command).append(")\n");
            if (sub.getCommand() instanceof HelpCommand) out.append("      ").append(fn).append("_words ").append(words(commands)).append('\n');
            else body(out, fn, sub.getCommandSpec());
            out.append("      ;;\n");
        });
        out.append("  esac\n}\n\n");
        // -o default: what the function cannot name (a $VARIABLE/ path) is left to readline's file names.
        out.append("complete -F ").append(fn).append(" -o default ").append(name).append('\n');
        return out.toString();
    }

    /** A command's values by the option before the word, then its options or its positional parameters (paths). */
    private static void body(StringBuilder out, String fn, CommandSpec command) {
        Map<String, List<String>> byCompletion = new LinkedHashMap<>();
        for (OptionSpec o : options(command)) {
            if (o.arity().min() == 0) continue; // a flag, or a value that may be left out (--progress): the next word is the command's
            byCompletion.computeIfAbsent(valueCompletion(fn, o), k -> new ArrayList<>()).addAll(List.of(o.names()));
        }
        out.append("      case $prev in\n");
        byCompletion.forEach((completion, names) ->
                out.append("        ").append(String.join("|", names)).append(") ").append(completion).append("; return ;;\n"));
        out.append("      esac\n");
        out.append("      if [[ $cur == -* ]]; then ").append(fn).append("_words ").append(words(optionNames(command)));
        out.append(command.positionalParameters().isEmpty() ? "; fi\n" : "; else " + fn + "_paths -f; fi\n");
    }

    /** What the value after this option completes to: its words, files, directories, or nothing (readline's files neither). */
    private static String valueCompletion(String fn, OptionSpec o) {
        if (o.completionCandidates() != null) {
            List<String> candidates = new ArrayList<>();
            o.completionCandidates().forEach(candidates::add);
            return fn + "_words " + words(candidates);
        }
        return switch (o.paramLabel()) {
            case "FILE" -> fn + "_paths -f";
            case "DIR" -> fn + "_paths -d";
            default -> {
                if (!FREE_VALUES.contains(o.paramLabel()))
                    throw new IllegalStateException(o.longestName() + "'s value " + o.paramLabel() + " has no completion: label it FILE or "
                            + "DIR, give it completion candidates, or add its label to the values that complete to nothing");
                yield "compopt +o default 2>/dev/null";
            }
        };
    }

    private static List<String> optionNames(CommandSpec command) {
        return options(command).stream().filter(o -> !o.hidden()).flatMap(o -> List.of(o.names()).stream()).toList();
    }

    /** In the order of their names, as the manual lists them: the model's order is reflection's, and the script must not change by itself. */
    private static List<OptionSpec> options(CommandSpec command) {
        return command.options().stream().sorted(ManualGenerator.BY_NAME).toList();
    }

    /** One single-quoted word list for compgen -W; the words are the model's option names and values, plain. */
    private static String words(List<String> words) {
        for (String w : words)
            if (!w.matches("[A-Za-z0-9._:+=\\[\\]-]+")) throw new IllegalStateException("not a plain word for completion: " + w);
        return words.stream().collect(Collectors.joining(" ", "'", "'"));
    }
}

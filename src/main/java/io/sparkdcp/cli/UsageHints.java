package io.sparkdcp.cli;

import picocli.CommandLine;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.UnmatchedArgumentException;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static java.util.Map.entry;

/**
 * What to say instead of picocli's "Unknown option" or "Unmatched argument" when the word is known
 * elsewhere: an option of another command ({@code copy --delete}), a misspelt command ({@code cpoy}),
 * or an rsync option that spark-dcp does not take ({@code -P}), with what to use instead.
 */
final class UsageHints {
    private UsageHints() {}

    /** An rsync option spark-dcp does not take: the option to use instead (null: none), and why (null: nothing to add). */
    record RsyncHabit(String instead, String why) {}

    private static final String WHOLE_WHEN_NAMED = "a file gets its name only once it is complete (unless --inplace), and running "
            + "the same command again resumes the copy";
    private static final String ALWAYS_KEPT = "hard links are always kept, and ACLs and xattrs unless --xattrs says otherwise "
            + "(-a here is rsync's -aAXH)";
    private static final String NO_TRANSFER = "each task reads SRC and writes DST through their mounts, so there is no transfer "
            + "to compress";

    /** rsync's options that its users type and spark-dcp refuses (no command takes them; UsageHintsTest keeps it so). */
    static final Map<String, RsyncHabit> RSYNC = Map.ofEntries(
            entry("-P", new RsyncHabit("--progress", WHOLE_WHEN_NAMED)),
            entry("--partial", new RsyncHabit(null, WHOLE_WHEN_NAMED)),
            entry("-z", new RsyncHabit(null, NO_TRANSFER)),
            entry("--compress", new RsyncHabit(null, NO_TRANSFER)),
            entry("-A", new RsyncHabit(null, ALWAYS_KEPT)),
            entry("--acls", new RsyncHabit(null, ALWAYS_KEPT)),
            entry("-X", new RsyncHabit(null, ALWAYS_KEPT)),
            entry("-H", new RsyncHabit(null, ALWAYS_KEPT)),
            entry("--hard-links", new RsyncHabit(null, ALWAYS_KEPT)),
            entry("-u", new RsyncHabit("--update", null)),
            entry("-c", new RsyncHabit("--contents", null)),
            entry("--checksum", new RsyncHabit("--contents", null)),
            entry("--modify-window", new RsyncHabit("--time-window", null)),
            entry("--remove-source-files", new RsyncHabit(null, "SRC is never modified")));

    /** The line for this error, or null when picocli's own says it best. */
    static String hint(UnmatchedArgumentException e) {
        CommandLine cmd = e.getCommandLine();
        List<String> unmatched = e.getUnmatched();
        if (unmatched.isEmpty()) return null;
        boolean atRoot = cmd.getParent() == null;
        if (atRoot && !unmatched.get(0).startsWith("-")) return unknownCommand(unmatched.get(0));
        String option = unmatched.stream().filter(w -> w.startsWith("-") && w.length() > 1).findFirst().orElse(null);
        if (option == null) return null;
        String name = optionName(option);
        CommandSpec here = cmd.getCommandSpec();
        CommandLine every = Main.withEverySubcommand(); // the launcher's has one command's options: models cost start-up time
        List<String> others = commandsTaking(every, name, here.name());
        if (!others.isEmpty())
            return name + " is an option of " + either(others, "and") + (atRoot ? "" : ", not of " + here.name())
                    + "; see '" + here.root().qualifiedName() + " " + others.get(0) + " --help'";
        RsyncHabit habit = RSYNC.get(name);
        if (habit == null) return null;
        StringBuilder line = new StringBuilder("rsync's ").append(name);
        if (habit.instead() == null) line.append(" is not taken");
        else {
            line.append(" is ").append(habit.instead()).append(" here");
            List<String> taking = commandsTaking(every, habit.instead(), null);
            if (!taking.contains(here.name())) line.append(", an option of ").append(either(taking, "and"));
        }
        if (habit.why() != null) line.append(": ").append(habit.why());
        return line.append("; see '").append(here.qualifiedName()).append(" --help'").toString();
    }

    /** {@code cpoy}: the installed command nearest by edit distance, when one is near enough to be meant. */
    private static String unknownCommand(String word) {
        List<String> commands = Main.subcommands();
        String nearest = null;
        int best = Integer.MAX_VALUE;
        for (String command : commands) {
            int d = distance(word, command);
            if (d < best) {
                best = d;
                nearest = command;
            }
        }
        String unknown = "unknown command '" + RawArguments.shown(word) + "': ";
        if (best <= Math.min(2, word.length() - 1)) return unknown + "did you mean " + nearest + "?";
        return unknown + "the command is " + either(commands, "or") + "; see 'spark-dcp --help'";
    }

    /** The option a word names: {@code --log=DIR} names --log; in a cluster of letters ({@code -P} of -avP) picocli hands the rest, whose first is unknown. */
    private static String optionName(String word) {
        if (word.startsWith("--")) {
            int eq = word.indexOf('=');
            return eq < 0 ? word : word.substring(0, eq);
        }
        return word.substring(0, 2);
    }

    /** The other commands (every one when {@code except} is null) that take the option, in help's order. */
    static List<String> commandsTaking(CommandLine every, String option, String except) {
        List<String> taking = new ArrayList<>();
        every.getSubcommands().forEach((name, sub) -> {
            Object command = sub.getCommand();
            if (name.equals(except) || command instanceof HelpCommand || command instanceof ModuleCommands.Missing) return;
            if (sub.getCommandSpec().optionsMap().containsKey(option)) taking.add(name);
        });
        return taking;
    }

    private static String either(List<String> words, String conjunction) {
        if (words.size() == 1) return words.get(0);
        return String.join(", ", words.subList(0, words.size() - 1)) + " " + conjunction + " " + words.get(words.size() - 1);
    }

    /** Optimal string alignment distance: Levenshtein's, with a swap of two neighbours one edit (cpoy, copy). */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) d[i][0] = i;
        for (int j = 0; j <= b.length(); j++) d[0][j] = j;
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1))
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
            }
        }
        return d[a.length()][b.length()];
    }
}

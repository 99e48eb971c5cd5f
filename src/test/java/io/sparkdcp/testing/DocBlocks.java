package io.sparkdcp.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The code blocks of a Markdown file, fenced ({@code ```sh}) or indented by four spaces, and the
 * shell command lines they show, so that tests can hold the docs to what the tests run.
 */
public final class DocBlocks {
    /** The words that tell a reader a command is only shown. */
    public static final String NOT_RUN = "not run by the tests";
    private static final Pattern FENCE = Pattern.compile("^```(\\w*)\\s*$");
    private static final Set<String> SHELL_LANGUAGES = Set.of("", "sh", "bash", "shell", "console");
    private static final String INDENT = "    ";
    private static final String PROMPT = "$ ";
    /** A synopsis ({@code spark-dcp copy [OPTION]... SRC... DST}): the form of a command, not one to run. */
    private static final Pattern SYNOPSIS = Pattern.compile("\\[(?i:options?)]");
    private static final Pattern ASSIGNED_NAME = Pattern.compile("^[A-Z_][A-Z0-9_]*=");
    /** A command's first word: a program or path, never a {@code word:} of output nor a tab-separated record. */
    private static final Pattern COMMAND_WORD = Pattern.compile("^[A-Za-z./\\[][A-Za-z0-9_./\\-]*( |$)");

    /** One code block: where it starts (1-based line of its first content line), its language, its lines. */
    public record Block(Path file, int line, String language, List<String> lines, String paragraphBefore) {
        public boolean isShell() {
            return language == null || SHELL_LANGUAGES.contains(language.toLowerCase(Locale.ROOT));
        }

        /** A comment line of the block, or the paragraph just before it, says it is not run by the tests. */
        public boolean markedNotRun() {
            return saysNotRun(paragraphBefore) || lines.stream().anyMatch(l -> l.strip().startsWith("#") && saysNotRun(l));
        }

        public String text() {
            return String.join("\n", lines) + "\n";
        }

        public String where() {
            return file.getFileName() + ":" + line;
        }
    }

    /** A command line as shown: its text without comments, blanks folded, and whether its own comment marks it not run. */
    public record Command(Block block, String text, boolean markedNotRun) {}

    private DocBlocks() {}

    public static List<Block> read(Path markdown) throws IOException {
        List<String> lines = Files.readAllLines(markdown);
        List<Block> blocks = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher fence = FENCE.matcher(lines.get(i));
            if (fence.matches()) {
                int end = i + 1;
                while (end < lines.size() && !lines.get(end).startsWith("```")) end++;
                blocks.add(new Block(markdown, i + 2, fence.group(1), List.copyOf(lines.subList(i + 1, end)), paragraphBefore(lines, i)));
                i = end;
            } else if (lines.get(i).startsWith(INDENT) && (i == 0 || lines.get(i - 1).isBlank())) {
                int end = i;
                List<String> body = new ArrayList<>();
                while (end < lines.size() && (lines.get(end).startsWith(INDENT)
                        || lines.get(end).isBlank() && end + 1 < lines.size() && lines.get(end + 1).startsWith(INDENT))) {
                    body.add(lines.get(end).isBlank() ? "" : lines.get(end).substring(INDENT.length()));
                    end++;
                }
                blocks.add(new Block(markdown, i + 1, null, List.copyOf(body), paragraphBefore(lines, i)));
                i = end - 1;
            }
        }
        return blocks;
    }

    /**
     * The shell commands a block shows: after a {@code $ } prompt when it has one (the rest is output), else
     * every line that starts like a command (program or path first, after any VAR=value); lines continued
     * with a backslash are one command. A block of output or of options shows none, nor a synopsis.
     */
    public static List<Command> commands(Block block) {
        if (!block.isShell()) return List.of();
        boolean prompted = block.lines().stream().anyMatch(l -> l.startsWith(PROMPT));
        List<Command> commands = new ArrayList<>();
        StringBuilder continued = null;
        boolean notRun = false;
        for (String raw : block.lines()) {
            String line = raw;
            if (continued == null) {
                if (prompted) {
                    if (!line.startsWith(PROMPT)) continue;
                    line = line.substring(PROMPT.length());
                }
                if (line.isBlank() || line.strip().startsWith("#") || !looksLikeCommand(line.strip())) continue;
                continued = new StringBuilder();
                notRun = false;
            } else if (line.strip().startsWith("#")) {
                continue; // a comment line inside a continued command
            }
            String comment = comment(line);
            notRun |= saysNotRun(comment);
            String code = line.substring(0, line.length() - comment.length()).strip();
            boolean more = code.endsWith("\\");
            continued.append(' ').append(more ? code.substring(0, code.length() - 1) : code);
            if (!more) {
                add(commands, new Command(block, fold(continued.toString()), notRun));
                continued = null;
            }
        }
        if (continued != null) add(commands, new Command(block, fold(continued.toString()), notRun));
        return commands;
    }

    private static void add(List<Command> commands, Command command) {
        if (!SYNOPSIS.matcher(command.text()).find()) commands.add(command);
    }

    /** Blanks folded to one space, trimmed: the form commands are compared in. */
    public static String fold(String command) {
        return command.strip().replaceAll("\\s+", " ");
    }

    static boolean looksLikeCommand(String line) {
        String rest = line;
        for (Matcher m = ASSIGNED_NAME.matcher(rest); m.find(); m = ASSIGNED_NAME.matcher(rest)) {
            rest = rest.substring(wordEnd(rest, m.end())).stripLeading();
            if (rest.isEmpty()) return true; // only assignments: a command too
        }
        return COMMAND_WORD.matcher(rest).find() && !rest.startsWith("[--");
    }

    /** Where the shell word starting at {@code from} ends: at a blank outside quotes and $(...). */
    private static int wordEnd(String line, int from) {
        char quote = 0;
        int depth = 0;
        for (int i = from; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote != 0) {
                if (c == quote) quote = 0;
            } else if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ' ' && depth == 0) {
                return i;
            }
        }
        return line.length();
    }

    /** A trailing {@code # comment} outside quotes (with a blank before it), or "". */
    static String comment(String line) {
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote != 0) {
                if (c == quote) quote = 0;
            } else if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == '#' && i > 0 && Character.isWhitespace(line.charAt(i - 1))) {
                return line.substring(i);
            }
        }
        return "";
    }

    private static boolean saysNotRun(String text) {
        return text.replaceAll("\\s+", " ").toLowerCase(Locale.ROOT).contains(NOT_RUN);
    }

    /** The non-blank lines just before line {@code at}, back to the blank line before them. */
    private static String paragraphBefore(List<String> lines, int at) {
        int end = at;
        while (end > 0 && lines.get(end - 1).isBlank()) end--;
        int start = end;
        while (start > 0 && !lines.get(start - 1).isBlank()) start--;
        return String.join(" ", lines.subList(start, end));
    }
}

package io.sparkdcp.walk;

import io.sparkdcp.posix.PathBytes;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * rsync's syntax for one {@code --include}/{@code --exclude} argument or one line of an
 * {@code --include-from}/{@code --exclude-from} file (exclude.c's {@code parse_rule_tok} with its
 * old-prefix mode): an optional {@code "+ "} (include) or {@code "- "} (exclude) prefix, then the
 * pattern, spaces and all; a lone {@code !} clears the rules given so far. rsync reads the other
 * forms of its {@code --filter} rules here as literal patterns; a user who writes {@code -! x},
 * {@code +s x}, {@code P x}, {@code . FILE}, {@code : FILE} or {@code merge FILE} means the rule
 * they stand for, which is not implemented, so they are refused rather than matched as names.
 */
public final class RuleText {
    /** A short rule with modifiers, a merge, hide/show/protect/risk, or a long-named rule, each followed by a space. */
    private static final Pattern FILTER_RULE = Pattern.compile(
            "(?s)(([-+][,!/CenpwsrxX+-]+|[.:HSPR][,!/CenpwsrxX+-]*) |(clear|dir-merge|exclude|hide|include|merge|protect|risk|show)[ ,]).*");

    private RuleText() {}

    /**
     * The filter with one more rule read from {@code text}, or cleared by {@code !}.
     * @param include whether an unprefixed pattern includes ({@code --include}, {@code --include-from})
     */
    public static Filter apply(Filter filter, boolean include, byte[] text) {
        String latin1 = new String(text, java.nio.charset.StandardCharsets.ISO_8859_1);
        if (text.length == 0)
            throw new IllegalArgumentException("pattern '' is empty (rsync ignores it)");
        if (FILTER_RULE.matcher(latin1).matches())
            throw new IllegalArgumentException("rule '" + PathBytes.display(text) + "' is rsync's --filter syntax ("
                    + form(latin1) + "), which spark-dcp does not take; only '+ PATTERN', '- PATTERN', PATTERN and '!' are rules here");
        if (text.length >= 2 && (text[0] == '+' || text[0] == '-') && text[1] == ' ') {
            if (text.length == 2) throw new IllegalArgumentException("rule '" + PathBytes.display(text) + "' has no pattern");
            return filter.with(Filter.Rule.of(text[0] == '+', Arrays.copyOfRange(text, 2, text.length)));
        }
        if (text.length == 1 && text[0] == '!') return filter.cleared();
        return filter.with(Filter.Rule.of(include, text));
    }

    /** The rules of a rule file: lines end at LF, CR or CRLF; blank lines and lines starting with # or ; are skipped. */
    public static List<byte[]> fileLines(byte[] content) {
        List<byte[]> out = new ArrayList<>();
        int start = 0;
        for (int i = 0; i <= content.length; i++) {
            if (i < content.length && content[i] != '\n' && content[i] != '\r') continue;
            if (i > start && content[start] != '#' && content[start] != ';') out.add(Arrays.copyOfRange(content, start, i));
            start = i + 1;
        }
        return out;
    }

    private static String form(String rule) {
        char c = rule.charAt(0);
        if (c == '.' || c == ':' || rule.startsWith("merge") || rule.startsWith("dir-merge")) return "a merge rule";
        if (c == '-' || c == '+') return "a rule with modifiers '" + rule.substring(1, rule.indexOf(' ')) + "'";
        if ("HSPR".indexOf(c) >= 0 || rule.startsWith("hide") || rule.startsWith("show") || rule.startsWith("protect")
                || rule.startsWith("risk")) return "a hide/show/protect/risk rule";
        return "a long-named rule";
    }
}

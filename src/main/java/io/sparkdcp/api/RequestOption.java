package io.sparkdcp.api;

import io.sparkdcp.copy.options.OptionTable;

import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * An entry of the option table ({@link OptionTable}) as a client of the API reads it: the CLI makes
 * its options from these and hands each value to {@link CopyRequest.Builder#set}.
 */
public final class RequestOption {
    private static final List<RequestOption> ALL = Stream.of(OptionTable.values()).map(RequestOption::new).toList();

    final OptionTable entry;

    private RequestOption(OptionTable entry) {
        this.entry = entry;
    }

    /** The table's options, in its order. */
    public static List<RequestOption> all() {
        return ALL;
    }

    /** The option as typed: {@code --verify}. */
    public String option() { return entry.option(); }

    /** Whether the command of this name takes it ({@code copy}, {@code sync}, {@code compare}, {@code bench}). */
    public boolean takenBy(String command) {
        return Stream.of(OptionTable.Command.values()).anyMatch(c -> c.name().toLowerCase(Locale.ROOT).equals(command) && entry.takes(c));
    }

    /** What help shows after it; null for a flag. */
    public String label() { return entry.label(); }

    /** The words it takes when they are few (none|all|...); else empty. */
    public List<String> words() { return entry.words(); }

    /** Its default as a word it takes; null for none. */
    public String defaultWord() { return entry.defaultWord(); }

    /** Its help in the command of this name (picocli's ${DEFAULT-VALUE} in it). */
    public String help(String command) {
        return entry.help(command.equals("compare") ? OptionTable.Command.COMPARE : OptionTable.Command.COPY);
    }

    /** The type of its value: boolean (a flag), int, long, String, or {@code Duration} (given as 1s, 200us). */
    public Class<?> type() {
        return switch (entry.value()) {
            case FLAG -> boolean.class;
            case INT -> int.class;
            case LONG -> long.class;
            case DURATION -> java.time.Duration.class;
            case TEXT, HADOOP_PATH -> String.class;
        };
    }

    /** Whether its value names a directory through Hadoop, which names files by Java strings. */
    public boolean hadoopPath() { return entry.value() == OptionTable.Value.HADOOP_PATH; }

    @Override
    public String toString() { return option(); }
}

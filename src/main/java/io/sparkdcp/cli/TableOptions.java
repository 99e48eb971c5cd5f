package io.sparkdcp.cli;

import io.sparkdcp.api.RequestOption;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.ISetter;
import picocli.CommandLine.Model.OptionSpec;

import java.time.Duration;
import java.util.List;

/**
 * The option table's options, made into picocli's: each command gets the entries it takes (copy, sync,
 * compare by name; any other command holding the engine options, the bench's), after its own annotated
 * ones. Each value goes straight into the engine options' request builder, which checks it, so a bad
 * value is a usage error while parsing with the builder's reason; the help, man page, docs/options.md
 * and the completion come from picocli's model, these options included.
 */
final class TableOptions {
    private TableOptions() {}

    /** {@code command} with the table's options it takes. */
    static CommandLine addTo(CommandLine command) {
        CommandSpec spec = command.getCommandSpec();
        String kind = kind(spec);
        if (kind == null) return command;
        for (RequestOption option : RequestOption.all())
            if (option.takenBy(kind)) spec.addOption(optionSpec(spec, option, option.help(kind)));
        return command;
    }

    /** Which of the table's commands this is (copy, sync, compare, bench); null for one that takes none of its options. */
    static String kind(CommandSpec spec) {
        if (List.of("copy", "sync", "compare").contains(spec.name())) return spec.name();
        return spec.mixins().values().stream().anyMatch(m -> m.userObject() instanceof EngineOptions) ? "bench" : null;
    }

    private static OptionSpec optionSpec(CommandSpec command, RequestOption option, String help) {
        OptionSpec.Builder o = OptionSpec.builder(option.option()).description(help).setter(setter(command, option)).type(option.type());
        if (option.label() != null) o.paramLabel(option.label());
        if (!option.words().isEmpty()) o.completionCandidates(option.words());
        if (option.defaultWord() != null) o.defaultValue(option.defaultWord());
        if (option.type() == boolean.class) o.arity("0");
        if (option.type() == Duration.class) o.type(Long.class).converters(new DurationConverter()); // to nanoseconds
        return o.build();
    }

    /** The value, as its word, into the request: a Hadoop path checked first, as Hadoop can name it. */
    private static ISetter setter(CommandSpec command, RequestOption option) {
        return new ISetter() {
            @Override
            public <T> T set(T value) {
                if (value == null) return null; // no default: the builder's own stands
                String word = String.valueOf(value);
                EngineOptions engine = EngineOptions.of(command);
                if (option.type() == boolean.class)
                    OptionValue.set(command, option.option(), () -> engine.request.set(option, word));
                else engine.set(option.option(), word, r -> r.set(option,
                        option.hadoopPath() ? OptionValue.hadoopPath(option.option(), word) : word));
                return null;
            }
        };
    }
}

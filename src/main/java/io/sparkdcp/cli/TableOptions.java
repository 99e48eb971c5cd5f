package io.sparkdcp.cli;

import io.sparkdcp.copy.options.OptionTable;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.ISetter;
import picocli.CommandLine.Model.OptionSpec;

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
        OptionTable.Command kind = kind(spec);
        if (kind == null) return command;
        for (OptionTable option : OptionTable.values())
            if (option.takes(kind)) spec.addOption(optionSpec(spec, option, option.help(kind)));
        return command;
    }

    /** Which of the table's commands this is; null for one that takes none of its options. */
    static OptionTable.Command kind(CommandSpec spec) {
        return switch (spec.name()) {
            case "copy" -> OptionTable.Command.COPY;
            case "sync" -> OptionTable.Command.SYNC;
            case "compare" -> OptionTable.Command.COMPARE;
            default -> spec.mixins().values().stream().anyMatch(m -> m.userObject() instanceof EngineOptions)
                    ? OptionTable.Command.BENCH : null;
        };
    }

    private static OptionSpec optionSpec(CommandSpec command, OptionTable option, String help) {
        OptionSpec.Builder o = OptionSpec.builder(option.option()).description(help).setter(setter(command, option));
        if (option.label() != null) o.paramLabel(option.label());
        if (option.defaultWord() != null) o.defaultValue(option.defaultWord());
        return switch (option.value()) {
            case FLAG -> o.type(boolean.class).arity("0").build();
            case INT -> o.type(int.class).build();
            case LONG -> o.type(long.class).build();
            case DURATION -> o.type(Long.class).converters(new DurationConverter()).build();
            case TEXT, HADOOP_PATH -> o.type(String.class).build();
        };
    }

    /** The value, as its word, into the request: a Hadoop path checked first, as Hadoop can name it. */
    private static ISetter setter(CommandSpec command, OptionTable option) {
        return new ISetter() {
            @Override
            public <T> T set(T value) {
                if (value == null) return null; // no default: the builder's own stands
                String word = String.valueOf(value);
                EngineOptions engine = EngineOptions.of(command);
                if (option.value() == OptionTable.Value.FLAG)
                    OptionValue.set(command, option.option(), () -> engine.request.set(option, word));
                else engine.set(option.option(), word, r -> r.set(option,
                        option.value() == OptionTable.Value.HADOOP_PATH ? OptionValue.hadoopPath(option.option(), word) : word));
                return null;
            }
        };
    }
}

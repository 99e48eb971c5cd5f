package io.sparkdcp.cli;

import io.sparkdcp.api.CopyRequest;
import picocli.CommandLine.IParameterConsumer;
import picocli.CommandLine.MissingParameterException;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.List;
import java.util.Stack;

/**
 * What SRC's walk lists, shared by copy and sync. The rules go to the request builder in the order
 * they are given on the command line (the first that matches decides), whichever option gives them:
 * picocli hands each occurrence to {@link InOrder} as it parses, which gives it to the engine options' builder at once (a bad pattern
 * or an unreadable file is a usage error while parsing).
 */
final class FilterOptions {
    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    @Option(names = "--exclude", paramLabel = "PATTERN", parameterConsumer = InOrder.class,
            description = "Leave out entries matching PATTERN, matched as rsync matches it (* within a name, ** across /, "
                    + "dir/*** dir and all it holds, a leading / anchors at SRC, a trailing / matches directories only; "
                    + "'+ ' and '- ' prefixes, '!' clears the rules). Excluded directories are not walked. Repeatable.")
    List<String> exclude;

    @Option(names = "--include", paramLabel = "PATTERN", parameterConsumer = InOrder.class,
            description = "Keep entries matching PATTERN: the first --include or --exclude that matches decides. Repeatable.")
    List<String> include;

    @Option(names = "--exclude-from", paramLabel = "FILE", parameterConsumer = InOrder.class,
            description = "Exclude the patterns in FILE, one a line ('+ ' starts an include, '- ' an exclude; lines starting "
                    + "with # or ; are comments). Repeatable.")
    List<String> excludeFrom;

    @Option(names = "--include-from", paramLabel = "FILE", parameterConsumer = InOrder.class,
            description = "Include the patterns in FILE, one a line, as --exclude-from reads them. Repeatable.")
    List<String> includeFrom;

    @Option(names = "--files-from", paramLabel = "FILE",
            description = "Copy only the paths listed in FILE (one a line, relative to SRC; a directory with all it holds), "
                    + "and the directories above them.")
    void filesFrom(String file) {
        OptionValue.set(command, "--files-from", () -> EngineOptions.of(command).request.filesFrom(RawArguments.bytes(file)));
    }

    /** Hands each occurrence of a rule option to the builder as picocli meets it, so rules keep their order. */
    static final class InOrder implements IParameterConsumer {
        @Override
        public void consumeParameters(Stack<String> args, ArgSpec argSpec, CommandSpec commandSpec) {
            String option = ((OptionSpec) argSpec).longestName();
            if (args.isEmpty())
                throw new MissingParameterException(commandSpec.commandLine(), argSpec, "Missing required parameter for option '" + option + "'");
            String value = args.pop();
            CopyRequest.Builder request = EngineOptions.of(commandSpec).request;
            OptionValue.set(commandSpec, option, () -> {
                switch (option) {
                    case "--exclude" -> request.exclude(RawArguments.bytes(value));
                    case "--include" -> request.include(RawArguments.bytes(value));
                    case "--include-from" -> request.includeFrom(RawArguments.bytes(value));
                    default -> request.excludeFrom(RawArguments.bytes(value));
                }
            });
        }
    }
}

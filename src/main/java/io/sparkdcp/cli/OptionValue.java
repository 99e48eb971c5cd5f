package io.sparkdcp.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * Options are picocli setter methods that hand their value to the API's {@code CopyRequest.Builder},
 * which checks it: a bad value is then a usage error while parsing, before anything runs, with the
 * builder's explanation, and the check exists once.
 */
final class OptionValue {
    private OptionValue() {}

    static void set(CommandSpec command, String option, Runnable setter) {
        try {
            setter.run();
        } catch (IllegalArgumentException e) {
            String reason = e.getMessage().startsWith(option + " ") ? e.getMessage().substring(option.length() + 1) : e.getMessage();
            throw new ParameterException(command.commandLine(), "Invalid value for option '" + option + "': " + reason);
        }
    }

    /**
     * A place ({@code --log}, {@code --listing}, {@code --save-listing}): named by a String, on this machine as
     * through Hadoop, so a name whose bytes are not UTF-8 cannot reach its file and is refused.
     */
    static String hadoopPath(String option, String dir) {
        if (RawArguments.notUtf8(dir))
            throw new IllegalArgumentException(option + " " + RawArguments.shown(dir) + " is not UTF-8, which a Hadoop path cannot name "
                    + "(its file systems name files by Java strings); give a directory whose name is UTF-8");
        return dir;
    }
}

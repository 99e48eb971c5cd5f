package io.sparkdcp.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.Callable;

/**
 * The subcommands of jars beside the product's ({@link ModuleCommand}), found by {@link ServiceLoader}
 * in the order of the class path, so that the product compiles and ships without them. The bench
 * module's two have a stand-in for when its jar is absent: not listed, but named it says so in one line.
 */
final class ModuleCommands {
    /** The bench module's commands: the launcher adds its jar (bench/target/spark-dcp-bench-app.jar) when it is there. */
    static final List<String> BENCH = List.of("bench", "scale-bench");

    private ModuleCommands() {}

    /**
     * The commands the jars on the class path list, by name, not yet made. Looking reads every jar's
     * services entry: done for help, usage errors and a command that is not the product's own.
     */
    static Map<String, ServiceLoader.Provider<ModuleCommand>> found() {
        Map<String, ServiceLoader.Provider<ModuleCommand>> byName = new LinkedHashMap<>();
        ServiceLoader.load(ModuleCommand.class).stream().forEach(p -> byName.put(name(p.type()), p));
        return byName;
    }

    /** The named module command, its stand-in when it is the bench's and its jar is absent, or null. */
    static Object command(String name) {
        ServiceLoader.Provider<ModuleCommand> found = found().get(name);
        if (found != null) return found.get();
        return BENCH.contains(name) ? new Missing(name) : null;
    }

    private static String name(Class<?> type) {
        Command command = type.getAnnotation(Command.class);
        if (command == null || command.name().startsWith("<"))
            throw new IllegalStateException(type.getName() + " is listed as a command of spark-dcp but has no @Command(name = ...)");
        return command.name();
    }

    /** Takes any arguments and refuses them in one line: exit 2, as for any command that cannot run here. */
    @Command(hidden = true, description = "Not in this build: it needs the bench module's jar (bench/target/spark-dcp-bench-app.jar, made by mvn package).")
    static final class Missing implements Callable<Integer> {
        private final String name;

        @Spec
        CommandSpec spec;

        @Unmatched
        List<String> arguments;

        Missing(String name) {
            this.name = name;
        }

        @Override
        public Integer call() {
            PrintWriter err = spec.commandLine().getErr();
            err.println("spark-dcp: " + name + " is not in this build: the bench module's jar (bench/target/spark-dcp-bench-app.jar) "
                    + "is not on the class path; mvn package builds it and the launcher then adds it");
            err.flush();
            return Main.EXIT_USAGE;
        }
    }
}

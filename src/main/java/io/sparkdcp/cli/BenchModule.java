package io.sparkdcp.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * The subcommands of the bench module (bench/, its own jar): found by class name, so that the product
 * compiles and ships without them. Without that jar on the class path each is a stand-in that says so.
 */
final class BenchModule {
    private BenchModule() {}

    /** The named class's command, or the stand-in when the bench module's jar is not on the class path. */
    static Object command(String name, String className) {
        Class<?> command;
        try {
            command = Class.forName(className);
        } catch (ClassNotFoundException e) {
            return new Missing(name);
        }
        try {
            return command.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot make the " + name + " command from " + className, e);
        }
    }

    /** Takes any arguments and refuses them in one line: exit 2, as for any command that cannot run here. */
    @Command(description = "Not in this build: it needs the bench module's jar (bench/target/spark-dcp-bench-app.jar, made by mvn package).")
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

package io.sparkdcp.cli;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The command line the launcher runs: the model of the one subcommand asked for. */
@Tag("fast")
class MainTest {
    @Test
    void aRunNamingASubcommandModelsThatOneAlone() {
        for (String name : Main.SUBCOMMANDS) {
            if (name.equals("help")) continue;
            assertEquals(Set.of(name), Main.commandLine(new String[] {name, "--help"}).getSubcommands().keySet(), name);
        }
    }

    @Test
    void helpAndUsageErrorsSeeEverySubcommand() {
        for (String[] args : List.of(new String[] {}, new String[] {"help"}, new String[] {"--version"}, new String[] {"cpy", "a", "b"}))
            assertEquals(Main.SUBCOMMANDS, List.copyOf(Main.commandLine(args).getSubcommands().keySet()), String.join(" ", args));
    }

    /** The product's tests run without the bench module's jar: its commands are there, and say what they need. */
    @Test
    void aBenchCommandWithoutTheBenchModuleIsOneLineAndExitTwo() {
        for (String name : List.of("bench", "scale-bench")) {
            CommandLineRun run = CommandLineRun.asLaunched(name, "--rounds", "3", "/scratch");
            assertEquals(2, run.exitCode(), run.err());
            assertEquals("", run.out());
            assertEquals(1, run.err().lines().count(), run.err());
            assertTrue(run.err().startsWith("spark-dcp: " + name + " is not in this build: the bench module's jar"), run.err());
        }
    }
}

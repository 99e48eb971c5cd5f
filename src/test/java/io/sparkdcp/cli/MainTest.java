package io.sparkdcp.cli;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The command line the launcher runs: the model of the one subcommand asked for. */
@Tag("fast")
class MainTest {
    @Test
    void aRunNamingASubcommandModelsThatOneAlone() {
        for (String name : union(Main.subcommands(), ModuleCommands.BENCH)) {
            if (name.equals("help")) continue;
            assertEquals(Set.of(name), Main.commandLine(new String[] {name, "--help"}).getSubcommands().keySet(), name);
        }
    }

    @Test
    void helpAndUsageErrorsSeeEverySubcommand() {
        for (String[] args : List.of(new String[] {}, new String[] {"help"}, new String[] {"--version"}, new String[] {"cpy", "a", "b"}))
            assertEquals(Main.subcommands(), listed(Main.commandLine(args)), String.join(" ", args));
    }

    /** Without the bench module's jar (the product's tests run without it) neither help nor a usage error names its commands. */
    @Test
    void theCommandListShowsOnlyWhatIsInstalled() {
        assertEquals(List.of("copy", "sync", "compare", "help"), Main.subcommands());
        CommandLineRun help = CommandLineRun.asLaunched("--help");
        assertEquals(0, help.exitCode(), help.err());
        for (String name : ModuleCommands.BENCH) assertFalse(help.out().contains(name), name + " in\n" + help.out());
        CommandLineRun none = CommandLineRun.asLaunched();
        assertEquals("spark-dcp: missing command: copy, sync, compare or help; see 'spark-dcp --help'\n", none.err());
    }

    /** The subcommands help lists: all but the absent bench's stand-ins. */
    private static List<String> listed(CommandLine cl) {
        return cl.getSubcommands().entrySet().stream().filter(e -> !e.getValue().getCommandSpec().usageMessage().hidden())
                .map(Map.Entry::getKey).toList();
    }

    private static List<String> union(List<String> a, List<String> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).distinct().toList();
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

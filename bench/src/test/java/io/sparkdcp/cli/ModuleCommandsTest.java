package io.sparkdcp.cli;

import io.sparkdcp.bench.cli.BenchCommand;
import io.sparkdcp.bench.cli.ScaleBenchCommand;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** With the bench module's jar on the class path its commands are found through its services entry, listed and run. */
class ModuleCommandsTest {
    @Test
    void theBenchsCommandsAreListedAfterTheProductsOwn() {
        assertEquals(List.of("copy", "sync", "compare", "bench", "scale-bench", "help"), Main.subcommands());
        CommandLineRun none = CommandLineRun.asLaunched();
        assertEquals("spark-dcp: missing command: copy, sync, compare, bench, scale-bench or help; see 'spark-dcp --help'\n", none.err());
        String help = CommandLineRun.asLaunched("--help").out();
        for (String name : List.of("bench", "scale-bench")) assertTrue(help.contains("  " + name + " "), name + " in\n" + help);
    }

    @Test
    void aRunNamingOneModelsTheBenchsOwnCommand() {
        assertInstanceOf(BenchCommand.class, Main.commandLine(new String[] {"bench", "--help"}).getSubcommands().get("bench").getCommand());
        assertInstanceOf(ScaleBenchCommand.class,
                Main.commandLine(new String[] {"scale-bench", "--help"}).getSubcommands().get("scale-bench").getCommand());
    }

    /** The manual, options.md and the completion are the product's: generated with the bench's jar present they stay the same. */
    @Test
    void theManualLeavesThemOut() {
        String completion = ManualGenerator.ofProduct().completion();
        assertFalse(completion.contains("bench"), completion);
    }
}

package io.sparkdcp.bench;

/** A planted violation for BenchLayeringTest: the bench reaching up into the CLI. */
public final class LayeringPlant {
    private LayeringPlant() {}

    static Object commandLine() {
        return io.sparkdcp.cli.Main.commandLine();
    }
}

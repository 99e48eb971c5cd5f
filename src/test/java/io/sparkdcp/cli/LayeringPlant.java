package io.sparkdcp.cli;

/** A planted violation for LayeringTest: the CLI catching a job type instead of going through the API. */
public final class LayeringPlant {
    private LayeringPlant() {}

    static boolean usage(RuntimeException e) {
        return e instanceof io.sparkdcp.roots.UsageException;
    }
}

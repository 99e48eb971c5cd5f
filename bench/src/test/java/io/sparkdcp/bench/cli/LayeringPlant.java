package io.sparkdcp.bench.cli;

/** A planted violation for BenchLayeringTest: a bench command calling libc instead of going through the API. */
public final class LayeringPlant {
    private LayeringPlant() {}

    static int depth(byte[] path) {
        return io.sparkdcp.posix.PathBytes.depth(path);
    }
}

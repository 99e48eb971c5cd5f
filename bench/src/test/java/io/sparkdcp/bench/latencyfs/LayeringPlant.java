package io.sparkdcp.bench.latencyfs;

/** A planted violation for BenchLayeringTest: the latency file system copying through the API it slows down. */
public final class LayeringPlant {
    private LayeringPlant() {}

    static Object request() {
        return io.sparkdcp.api.CopyRequest.builder();
    }
}

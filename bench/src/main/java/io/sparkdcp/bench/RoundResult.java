package io.sparkdcp.bench;

import io.sparkdcp.copy.steps.StepStats;

import java.util.Map;

/**
 * One copy of the tree by one contender.
 *
 * @param steps  the engine's step timings (empty for external commands)
 * @param failed   entries that failed (for a command: 1 when it exited non-zero)
 * @param requests requests the file system served during the copy, by kind (latency file system only, else empty)
 * @param cpuNanos CPU time (user + system) the copy cost, in the bench's JVM or in the command it waited for
 */
public record RoundResult(long wallNanos, long failed, StepStats steps, Map<String, Long> requests, long cpuNanos) {
    public RoundResult {
        requests = Map.copyOf(requests);
    }

    public RoundResult(long wallNanos, long failed, StepStats steps) {
        this(wallNanos, failed, steps, Map.of(), 0);
    }

    public RoundResult withRequests(Map<String, Long> counted) {
        return new RoundResult(wallNanos, failed, steps, counted, cpuNanos);
    }

    public RoundResult withCpu(long nanos) {
        return new RoundResult(wallNanos, failed, steps, requests, nanos);
    }
}

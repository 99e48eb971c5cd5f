package io.sparkdcp.bench;

import io.sparkdcp.copy.StepStats;

/**
 * One copy of the tree by one contender.
 *
 * @param steps  the engine's step timings (empty for external commands)
 * @param failed entries that failed (for a command: 1 when it exited non-zero)
 */
public record RoundResult(long wallNanos, long failed, StepStats steps) {}

package io.sparkdcp.copy.compare;

import io.sparkdcp.posix.Failure;

import java.io.Serializable;
import java.util.List;

/**
 * What one compare task found.
 *
 * @param compared      pairs it checked (whether or not they differ)
 * @param bytesCompared file bytes read on each side (with --contents)
 * @param failures      pairs it could not check whole (unreadable, or changed since the walk)
 */
public record CompareOutcome(List<Difference> differences, List<Failure> failures, long compared, long bytesCompared)
        implements Serializable {}

package io.sparkdcp.walk;

import io.sparkdcp.posix.Stat;

import java.io.Serializable;

/** A directory still to be listed: its path under the root and its stat from its parent's listing. */
public record Subdirectory(byte[] path, Stat stat) implements Serializable {}

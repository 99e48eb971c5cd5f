package io.sparkdcp.copy.compare;

import java.io.Serializable;

/** A range of a file both trees have, compared byte for byte by one task: large files are split among tasks. */
public record PairChunk(EntryPair pair, long offset, long length) implements Serializable {}

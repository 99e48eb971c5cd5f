package io.sparkdcp.copy;

import io.sparkdcp.walk.Entry;

import java.io.Serializable;
import java.util.List;

/** Directories of one depth to finish, split by whether this run created them (for sync's counts). */
public record DirectoryBatch(List<Entry> created, List<Entry> existing) implements Serializable {}

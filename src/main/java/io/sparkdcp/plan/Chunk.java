package io.sparkdcp.plan;

import io.sparkdcp.walk.Entry;

import java.io.Serializable;

/** Bytes [offset, offset + length) of a large file, copied by one task. */
public record Chunk(Entry file, long offset, long length) implements Serializable {}

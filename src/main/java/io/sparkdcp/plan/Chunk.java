package io.sparkdcp.plan;

import io.sparkdcp.walk.Entry;

import java.io.Serializable;

/** Bytes [offset, offset + length) of a large file, copied by one task into the temporary its prepare step made. */
public record Chunk(Entry file, long offset, long length, long destinationIno, byte[] temporary) implements Serializable {}

package io.sparkdcp.plan;

import io.sparkdcp.walk.Entry;

import java.io.Serializable;

/** A further name of an inode already copied under {@code target}'s path: made with linkat. */
public record HardLink(Entry entry, byte[] target) implements Serializable {}

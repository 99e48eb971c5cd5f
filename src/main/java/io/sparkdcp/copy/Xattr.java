package io.sparkdcp.copy;

/** One extended attribute: name and value as bytes. */
public record Xattr(byte[] name, byte[] value) {}

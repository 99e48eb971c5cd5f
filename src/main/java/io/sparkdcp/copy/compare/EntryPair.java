package io.sparkdcp.copy.compare;

import io.sparkdcp.walk.Entry;

import java.io.Serializable;

/** An entry both trees have at the same path, as their walks saw it: the unit a compare task checks. */
public record EntryPair(Entry source, Entry destination) implements Serializable {
    public byte[] path() {
        return source.path();
    }
}

package io.sparkdcp.walk;

import io.sparkdcp.copy.Failure;

import java.util.List;

/** The walk's result: every entry it could stat (the root first), and the errors it met on the way. */
public record Listing(List<Entry> entries, List<Failure> errors) {
    public boolean complete() { return errors.isEmpty(); }
}

package io.sparkdcp.progress;

import java.io.Serializable;

/** An amount of copy work: entries and bytes of file data, either done so far or in total. */
public record Work(long entries, long bytes) implements Serializable {
    public static final Work NONE = new Work(0, 0);

    public Work plus(Work other) {
        return new Work(entries + other.entries, bytes + other.bytes);
    }
}

package io.sparkdcp.job.exec;

import java.io.Serializable;
import java.util.Arrays;

/** A path as a key: compared by its bytes. */
public record PathKey(byte[] path) implements Serializable {
    @Override
    public boolean equals(Object o) { return o instanceof PathKey k && Arrays.equals(path, k.path); }

    @Override
    public int hashCode() { return Arrays.hashCode(path); }
}

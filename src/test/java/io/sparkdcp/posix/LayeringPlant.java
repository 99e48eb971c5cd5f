package io.sparkdcp.posix;

/** A planted violation for LayeringTest: the native room reaching up into the walk (an upward import, and a cycle). */
public final class LayeringPlant {
    private LayeringPlant() {}

    static int depth(io.sparkdcp.walk.Entry e) {
        return PathBytes.depth(e.path());
    }
}

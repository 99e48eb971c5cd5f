package io.sparkdcp.copy.compare;

import io.sparkdcp.posix.PathBytes;

import java.io.Serializable;
import java.util.Locale;

/**
 * One way an entry of two compared trees differs.
 *
 * @param path        relative to both roots (bytes; empty for the roots)
 * @param source      what SRC has, in words ("" when it has nothing there)
 * @param destination what DST has, in words
 */
public record Difference(byte[] path, Kind kind, String source, String destination) implements Serializable {

    /** The kinds, in the order a summary lists them; {@link #word()} names each in the report. */
    public enum Kind {
        ONLY_IN_SOURCE, ONLY_IN_DESTINATION, TYPE, SIZE, DATA, MODE, OWNER, GROUP, MTIME, DEVICE, SYMLINK_TARGET,
        XATTR, ACL, PROJECT_ID, PROJINHERIT, FLAGS, EXTENT_HINTS, HARD_LINKS;

        public String word() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public String display() {
        return PathBytes.display(path);
    }

    /** One line: {@code PATH: kind: SRC != DST}, or {@code PATH: only_in_source: WHAT}. */
    public String describe() {
        return switch (kind) {
            case ONLY_IN_SOURCE -> display() + ": " + kind.word() + ": " + source;
            case ONLY_IN_DESTINATION -> display() + ": " + kind.word() + ": " + destination;
            case DATA -> display() + ": " + kind.word() + ": the bytes differ";
            default -> display() + ": " + kind.word() + ": " + source + " != " + destination;
        };
    }
}

package io.sparkdcp.copy.options;

import java.io.Serializable;

/**
 * Where the tasks write the itemized log ({@code --log DIR}), shipped with the copy's options.
 *
 * @param dir     the log's directory, local or a Hadoop path
 * @param skipped also log the entries left as they were ({@code --log-skipped})
 * @param prefix  what this pair's paths are under in DST (its name, for one of several sources), or empty
 */
public record ItemLogTarget(String dir, boolean skipped, byte[] prefix) implements Serializable {
    public ItemLogTarget {
        if (dir == null || dir.isBlank()) throw new IllegalArgumentException("--log needs a directory");
        if (prefix == null) throw new IllegalArgumentException("prefix must be given (empty for none)");
    }

    /** The same log in {@code directory} (the driver's absolute form of the one given). */
    public ItemLogTarget in(String directory) {
        return new ItemLogTarget(directory, skipped, prefix);
    }

    public ItemLogTarget under(byte[] p) {
        return new ItemLogTarget(dir, skipped, p);
    }
}

package io.sparkdcp.copy;

import io.sparkdcp.walk.Entry;

import java.io.Serializable;
import java.util.List;

/**
 * Directories a sync finishes, in order (deepest first), each marked by whether this run created it:
 * a new directory counts as copied, an existing one as metadata fixed or skipped.
 */
public record DirectoryBatch(List<Entry> entries, boolean[] created) implements Serializable {
    public DirectoryBatch {
        if (entries.size() != created.length) throw new IllegalArgumentException("one created flag per directory");
    }
}

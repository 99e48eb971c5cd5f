package io.sparkdcp.plan;

import io.sparkdcp.walk.Entry;

import java.io.Serializable;
import java.util.List;

/**
 * One task's share of the non-directory entries, sorted by parent directory so consecutive entries
 * reuse the same open directory pair. {@code links} come after their targets' copies.
 */
public record FileBatch(int id, List<Entry> entries, List<HardLink> links) implements Serializable {
    public int size() { return entries.size() + links.size(); }
}

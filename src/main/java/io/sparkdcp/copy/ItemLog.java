package io.sparkdcp.copy;

import io.sparkdcp.posix.FileType;

/**
 * Where the engine tells, entry by entry, what it did: the itemized record behind its counts (each
 * count is made by the same call that tells it here, so the two cannot differ). Engines that share
 * a task's work may call it from several threads at once.
 */
@FunctionalInterface
public interface ItemLog {
    ItemLog NONE = (action, type, path) -> {};

    /** What was done with one entry. */
    enum Action { COPIED, LINKED, FIXED, SKIPPED, DELETED, FAILED }

    /** @param path relative to the roots */
    void record(Action action, FileType type, byte[] path);
}

package io.sparkdcp.copy;

import io.sparkdcp.copy.compare.Difference;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.FileType;

import java.util.Locale;
import java.util.Set;

/**
 * Where the engine tells, entry by entry, what it did: the itemized record behind its counts (each
 * count is made by the same call that tells it here, so the two cannot differ). Engines that share
 * a task's work may call it from several threads at once.
 */
public interface ItemLog {
    ItemLog NONE = new ItemLog() {
        @Override
        public void record(Action action, FileType type, byte[] path, Failure failure) {}

        @Override
        public void fixed(FileType type, byte[] path, Set<Difference.Kind> kinds) {}

        @Override
        public void jobFailure(Failure failure) {}
    };

    /** What was done with one entry; {@link #word()} names it in the log. */
    enum Action {
        COPIED, LINKED, FIXED, SKIPPED, KEPT_NEWER, DELETED, FAILED;

        public String word() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * @param path    relative to the roots
     * @param failure the call, errno and message of a {@code FAILED} entry; null for the other actions
     */
    void record(Action action, FileType type, byte[] path, Failure failure);

    /** A {@code FIXED} entry, with the kinds of metadata set on it (as compare names them). */
    void fixed(FileType type, byte[] path, Set<Difference.Kind> kinds);

    /** A failure of the job rather than of an entry the engine handled (a walk error, a refused deletion, a failed chunk). */
    void jobFailure(Failure failure);
}

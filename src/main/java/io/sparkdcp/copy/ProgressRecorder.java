package io.sparkdcp.copy;

/**
 * Where the engine reports work done as it goes, for live progress on the driver: once per entry
 * handled (whatever its outcome) with the file bytes it accounts for, and once per chunk with its
 * bytes. Counts line up with the walk's totals (entries listed, bytes listed).
 */
@FunctionalInterface
public interface ProgressRecorder {
    ProgressRecorder NONE = (entries, bytes) -> {};

    void done(long entries, long bytes);
}

package io.sparkdcp.api;

import java.time.Duration;
import java.util.function.Consumer;

/**
 * How the driver runs a request and talks about it: one of {@link CopyRequest}'s groups.
 *
 * @param mkpath           {@code --mkpath}: create DST's missing parents (without it a missing parent is refused)
 * @param progressInterval {@code --progress}: how often a progress line goes to {@code messages}; zero for none
 * @param messages         where the copy's one-line messages go (listing summary, progress);
 *                         by default stderr, prefixed {@code spark-dcp: }
 * @param timeWindow       {@code compare --time-window}: mtimes less than this apart count as equal (zero: to the
 *                         nanosecond), for a tree on a file system that keeps coarser times
 */
public record RunOptions(boolean mkpath, Duration progressInterval, Consumer<String> messages, Duration timeWindow) {
    public RunOptions {
        if (progressInterval == null || messages == null || timeWindow == null)
            throw new IllegalArgumentException("progressInterval, messages and timeWindow must be given");
    }

    /** The same, messages going to {@code sink}. */
    public RunOptions withMessages(Consumer<String> sink) {
        return new RunOptions(mkpath, progressInterval, sink, timeWindow);
    }
}

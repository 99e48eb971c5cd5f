package io.sparkdcp.api;

import java.time.Duration;
import java.util.function.Consumer;

/**
 * How the driver runs a request and talks about it: one of {@link CopyRequest}'s groups.
 *
 * @param mkpath           {@code --mkpath}: create DST's missing parents (without it a missing parent is refused)
 * @param progressInterval {@code --progress}: how often a progress line goes to {@code messages}; zero for none
 * @param messages         where the copy's one-line messages go (listing summary, notices);
 *                         by default stderr, prefixed {@code spark-dcp: }
 * @param progress         where the progress lines go: the messages unless the caller shows them its own way
 *                         (the CLI redraws one line in place on a terminal)
 * @param timeWindow       {@code compare --time-window}: mtimes less than this apart count as equal (zero: to the
 *                         nanosecond), for a tree on a file system that keeps coarser times
 */
public record RunOptions(boolean mkpath, Duration progressInterval, Consumer<String> messages, Consumer<String> progress,
                         Duration timeWindow) {
    public RunOptions {
        if (progressInterval == null || messages == null || progress == null || timeWindow == null)
            throw new IllegalArgumentException("progressInterval, messages, progress and timeWindow must be given");
    }

    /** The same, messages (and progress lines, when they went with them) going to {@code sink}. */
    public RunOptions withMessages(Consumer<String> sink) {
        return new RunOptions(mkpath, progressInterval, sink, progress == messages ? sink : progress, timeWindow);
    }
}

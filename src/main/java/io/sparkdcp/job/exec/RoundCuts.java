package io.sparkdcp.job.exec;

import io.sparkdcp.job.listing.ListingSummary;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.walk.Subdirectory;
import io.sparkdcp.walk.SubtreeWalk;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where each task of one walk round stopped: the last directory it listed, recorded on the driver
 * when the round's first computation reports. The round's function holds this object, and Spark
 * serialises a stage's functions anew each time it submits the stage, so a share computed again
 * later (its persisted blocks lost with their executors) lists through the same directory: the same
 * directories, and the same frontier, whatever the time budget would cut now. Only the first
 * computation, whose result nothing has used yet, is cut by time. A share is known by its first
 * directory in path order (the same whatever order a shuffle hands its directories in).
 */
public final class RoundCuts implements Serializable {
    private final Map<PathKey, byte[]> lastListed = new ConcurrentHashMap<>();

    /** What one task of a round listed, and which share it was. */
    public record Task(PathKey share, SubtreeWalk.Result result) implements Serializable {}

    /** What one task reported: its share, the last directory it listed, and its counts. */
    record Report(PathKey share, byte[] last, ListingSummary summary) implements Serializable {}

    static PathKey shareOf(List<Subdirectory> directories) {
        byte[] first = null;
        for (Subdirectory d : directories) if (first == null || PathBytes.compare(d.path(), first) < 0) first = d.path();
        return new PathKey(first);
    }

    void record(Report r) {
        if (r.last() != null) lastListed.put(r.share(), r.last());
    }

    /** The last directory this share listed the first time, or null before the round has reported. */
    byte[] of(PathKey share) {
        return lastListed.get(share);
    }

    static Iterable<Report> reports(List<Task> tasks) {
        List<Report> out = new ArrayList<>();
        for (Task t : tasks) out.add(new Report(t.share(), t.result().last(), ListingSummary.of(t.result())));
        return out;
    }
}

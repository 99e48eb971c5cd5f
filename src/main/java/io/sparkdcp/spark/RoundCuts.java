package io.sparkdcp.spark;

import java.io.Serializable;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where each task of one walk round stopped: the last directory it listed, recorded on the driver
 * when the round's first computation reports. The round's function holds this object, and Spark
 * serialises a stage's functions anew each time it submits the stage, so a partition computed again
 * later (its persisted blocks lost with their executors) lists through the same directory: the same
 * directories, and the same frontier, whatever the time budget would cut now. Only the first
 * computation, whose result nothing has used yet, is cut by time.
 */
final class RoundCuts implements Serializable {
    private final Map<Integer, byte[]> lastListed = new ConcurrentHashMap<>();

    /** What one task of the round reported: its partition, the last directory it listed, and its counts. */
    record Report(int partition, byte[] last, io.sparkdcp.job.ListingSummary summary) implements Serializable {}

    void record(Report r) {
        if (r.last() != null) lastListed.put(r.partition(), r.last());
    }

    /** The last directory partition {@code p} listed the first time, or null before the round has reported. */
    byte[] of(int p) {
        return lastListed.get(p);
    }
}

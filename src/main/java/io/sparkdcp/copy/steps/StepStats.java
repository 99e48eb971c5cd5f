package io.sparkdcp.copy.steps;

import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;

/** Count and total nanoseconds of each {@link Step}; mergeable, not thread-safe. */
public final class StepStats implements StepRecorder, Serializable {
    private final long[] counts = new long[Step.values().length];
    private final long[] nanos = new long[Step.values().length];

    @Override
    public void record(Step step, long elapsed) {
        counts[step.ordinal()]++;
        nanos[step.ordinal()] += elapsed;
    }

    public void merge(StepStats other) {
        for (int i = 0; i < counts.length; i++) {
            counts[i] += other.counts[i];
            nanos[i] += other.nanos[i];
        }
    }

    public long count(Step step) { return counts[step.ordinal()]; }

    public long nanos(Step step) { return nanos[step.ordinal()]; }

    /** Metadata calls of every kind ({@link Step#metadata}): what --max-ops limits. */
    public long metadataCalls() {
        long n = 0;
        for (Step s : Step.values()) if (s.metadata()) n += counts[s.ordinal()];
        return n;
    }

    public boolean isEmpty() {
        for (long c : counts) if (c != 0) return false;
        return true;
    }

    public StepStats copy() {
        StepStats c = new StepStats();
        c.merge(this);
        return c;
    }

    public void reset() {
        java.util.Arrays.fill(counts, 0);
        java.util.Arrays.fill(nanos, 0);
    }

    /** Steps that ran, in enum order: label → {count, nanos}. */
    public Map<String, long[]> asMap() {
        Map<String, long[]> m = new LinkedHashMap<>();
        for (Step s : Step.values()) if (counts[s.ordinal()] > 0) m.put(s.label(), new long[]{counts[s.ordinal()], nanos[s.ordinal()]});
        return m;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (Step s : Step.values()) {
            if (counts[s.ordinal()] == 0) continue;
            if (sb.length() > 0) sb.append(", ");
            sb.append(s.label()).append('=').append(counts[s.ordinal()]).append('/')
              .append(nanos[s.ordinal()] / 1_000_000).append("ms");
        }
        return sb.toString();
    }
}

package io.sparkdcp.testing;

import java.util.ArrayList;
import java.util.List;

/**
 * For seeded property tests: which seeds a run draws (every seed that once failed, kept as a fixed case,
 * then fresh ones), and one case run so that whatever it throws, an exception too, names the seed that
 * replays it.
 */
public final class Seeds {
    private Seeds() {}

    /** One seeded case. */
    @FunctionalInterface
    public interface Case {
        void run() throws Exception;
    }

    /**
     * The seed the system property names alone (a replay); else failedOnce, then fresh seeds from the
     * clock, so every run also tries trees no run tried before.
     */
    public static List<Long> toRun(String property, List<Long> failedOnce, int fresh) {
        Long only = Long.getLong(property);
        if (only != null) return List.of(only);
        List<Long> seeds = new ArrayList<>(failedOnce);
        long clock = System.nanoTime();
        for (int i = 0; i < fresh; i++) seeds.add(clock + i);
        return seeds;
    }

    /** What names a seed and how to replay it, for every message of its case. */
    public static String context(long seed, String property) {
        return "seed " + seed + " (-D" + property + "=" + seed + " replays it)";
    }

    /** Runs c; a failure that does not already start with context is rethrown as one that does. */
    public static void naming(String context, Case c) {
        try {
            c.run();
        } catch (AssertionError e) {
            if (e.getMessage() != null && e.getMessage().startsWith(context)) throw e;
            throw new AssertionError(context + ": " + e.getMessage(), e);
        } catch (Exception | LinkageError e) {
            throw new AssertionError(context + ": " + e, e);
        }
    }
}

package io.sparkdcp.bench;

import java.util.LinkedHashMap;
import java.util.Map;

/** Counts of the requests a file system served so far, by kind: the latency file system counts its own. */
@FunctionalInterface
public interface RequestCounter {
    RequestCounter NONE = Map::of;

    Map<String, Long> counts();

    /** after − before, kinds that did not change left out. */
    static Map<String, Long> difference(Map<String, Long> after, Map<String, Long> before) {
        Map<String, Long> out = new LinkedHashMap<>();
        after.forEach((kind, n) -> {
            long d = n - before.getOrDefault(kind, 0L);
            if (d != 0) out.put(kind, d);
        });
        return out;
    }
}

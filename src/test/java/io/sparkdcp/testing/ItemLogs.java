package io.sparkdcp.testing;

import io.sparkdcp.copy.CopyCounts;
import io.sparkdcp.itemlog.ItemLine;
import io.sparkdcp.posix.PathBytes;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** What tests check of an itemized log against the report of the same run. */
public final class ItemLogs {
    private ItemLogs() {}

    /** Lines per action equal the report's counts exactly, and no line is there twice. */
    public static void assertMatchesCounts(List<ItemLine> lines, CopyCounts c, boolean skipped) {
        Map<String, Long> expected = new TreeMap<>();
        put(expected, "copied", c.copied() - c.links());
        put(expected, "linked", c.links());
        put(expected, "fixed", c.metadataFixed());
        put(expected, "deleted", c.deleted());
        put(expected, "kept_newer", c.keptNewer());
        put(expected, "failed", c.failed());
        if (skipped) put(expected, "skipped", c.skipped());
        Map<String, Long> logged = lines.stream().collect(Collectors.groupingBy(ItemLine::action, TreeMap::new, Collectors.counting()));
        assertEquals(expected, logged, "lines per action against the report's counts");
        assertEquals(lines.size(), new HashSet<>(lines).size(), "no line twice: " + lines);
    }

    /** Each path is on one line at most: what a retried task did twice is there once. */
    public static void assertEachPathOnce(List<ItemLine> lines) {
        Map<String, Long> byPath = lines.stream().collect(Collectors.groupingBy(l -> PathBytes.display(l.path()), TreeMap::new,
                Collectors.counting()));
        byPath.values().removeIf(n -> n == 1);
        assertEquals(Map.of(), byPath, "paths on more than one line");
    }

    private static void put(Map<String, Long> m, String action, long n) {
        if (n > 0) m.put(action, n);
    }

    /** Action, type and path of each line (failures' calls aside), as a sorted set of strings. */
    public static Set<String> entries(List<ItemLine> lines) {
        return lines.stream().map(l -> l.action() + " " + l.what() + " " + PathBytes.display(l.path()))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** The lines by path shown. */
    public static Map<String, ItemLine> byPath(List<ItemLine> lines) {
        return lines.stream().collect(Collectors.toMap(l -> PathBytes.display(l.path()), Function.identity(), (a, b) -> a, TreeMap::new));
    }
}

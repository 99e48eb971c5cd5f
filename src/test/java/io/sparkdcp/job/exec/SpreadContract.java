package io.sparkdcp.job.exec;

import io.sparkdcp.copy.BatchResult;
import io.sparkdcp.copy.CopyCounts;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.testing.LocalCopy;
import io.sparkdcp.job.listing.ListingSummary;
import io.sparkdcp.walk.DirectoryBlock;
import io.sparkdcp.walk.Entry;
import io.sparkdcp.walk.Filter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What every {@link Spread} and {@link Listed} promises, the same on the driver's lists as on the
 * executors' RDDs: the same inputs give the same items, in the same order where the contract promises
 * one, the same shares where it promises them, also when a kept share was lost and computed again.
 */
public final class SpreadContract {
    private SpreadContract() {}

    /**
     * The contract's tests, run by one class per implementation. Nested, so that FastLaneTest judges each
     * implementation's class by what it reaches (the threads' one is fast, the RDDs' one starts Spark).
     */
    public abstract static class Tests {
        /** Counts the calls of {@link #dealing} and {@link #counted}: in local Spark the executors are this JVM's threads. */
        private static final AtomicInteger DEALING = new AtomicInteger();
        private static final AtomicInteger COMPUTED = new AtomicInteger();

        @TempDir
        Path dir;
        private JobOptions options;
        private Listed listed;

        /** This implementation's listing of {@code options}' source. */
        protected abstract Listed listing(JobOptions options);

        /**
         * Drops what {@code kept} holds and the shuffle output it was made from, as a lost executor would,
         * and says whether anything was held: the driver's lists cannot be lost.
         */
        protected abstract boolean lose(Spread<?> kept);

        @BeforeEach
        void listTheTree() throws IOException {
            Path src = Files.createDirectories(dir.resolve("src"));
            Files.createDirectories(src.resolve("a/b"));
            Files.writeString(src.resolve("a/one"), "1");
            Files.writeString(src.resolve("a/b/two"), "22");
            Files.createDirectories(src.resolve("c"));
            Path dst = Files.createDirectories(dir.resolve("dst"));
            Files.createDirectories(dst.resolve("x"));
            Files.writeString(dst.resolve("x/three"), "333");
            options = LocalCopy.defaults().withoutProjectIds().jobOptions(src, dst);
            listed = listing(options);
        }

        /** The listing of this test, made by {@link #listing}. */
        protected Listed listed() { return listed; }

        @AfterEach
        void close() {
            listed.close();
        }

        private <T> Spread<T> spread(List<T> items) {
            return listed.spread(items);
        }

        /** Many shares, some empty: {@code parts}' lists, one share each. */
        @SafeVarargs
        private <T> Spread<T> shares(List<T>... parts) {
            Spread<T> all = spread(parts[0]);
            for (List<T> part : Arrays.asList(parts).subList(1, parts.length)) all = all.union(spread(part));
            return all;
        }

        /** Each share's items, in the order the spread holds them. */
        private static <T> List<List<T>> sharesOf(Spread<T> spread) {
            return spread.<List<T>>mapShares(share -> List.of(new ArrayList<>(share))).collect();
        }

        private static List<Integer> range(int from, int to) {
            return IntStream.range(from, to).boxed().toList();
        }

        private static <T extends Comparable<T>> List<T> sorted(Collection<T> items) {
            List<T> out = new ArrayList<>(items);
            out.sort(null);
            return out;
        }

        private static <T> List<T> dealing(List<T> share) {
            DEALING.incrementAndGet();
            return share;
        }

        private static <T> List<T> counted(List<T> share) {
            COMPUTED.incrementAndGet();
            return share;
        }

        @Test
        void spreadHoldsTheDriversItemsInOrderInOneShare() {
            assertEquals(List.of(List.of(3, 1, 2)), sharesOf(spread(List.of(3, 1, 2))));
            assertEquals(List.of(), spread(List.of()).collect());
            assertEquals(0, spread(List.of()).count());
        }

        @Test
        void unionPutsTheOthersSharesAfterThese() {
            Spread<Integer> both = shares(List.of(1, 2), List.of(), List.of(3));
            assertEquals(List.of(List.of(1, 2), List.of(), List.of(3)), sharesOf(both));
            assertEquals(List.of(1, 2, 3), both.collect());
            assertEquals(3, both.count());
        }

        @Test
        void mapSharesAppliesOnceToEachShareInPlace() {
            Spread<Integer> many = shares(List.of(1, 2, 3), List.of(), List.of(4));
            assertEquals(List.of(3, 0, 1), many.mapShares(share -> List.of(share.size())).collect());
            assertEquals(List.of(2, 3, 4, 5), many.mapShares(share -> share.stream().map(i -> i + 1).toList()).collect());
            assertEquals(List.of(List.of(1, 2, 3), List.of(), List.of(4)), sharesOf(many.mapShares(share -> share)));
        }

        @Test
        void mapInTasksIsMapSharesRunAsAPhase() {
            Spread<Integer> many = shares(List.of(1, 2, 3), List.of(), List.of(4));
            assertEquals(List.of(List.of(6), List.of(0), List.of(4)),
                    sharesOf(many.mapInTasks("sum", share -> List.of(share.stream().mapToInt(i -> i).sum()))));
            assertEquals(List.of(), spread(List.<Integer>of()).mapInTasks("none", share -> share).collect());
        }

        @Test
        void filterKeepsOrderAndShares() {
            Spread<Integer> many = shares(List.of(1, 2, 3), List.of(5), List.of(4, 6));
            assertEquals(List.of(List.of(2), List.of(), List.of(4, 6)), sharesOf(many.filter(i -> i % 2 == 0)));
            assertEquals(List.of(), many.filter(i -> false).collect());
        }

        @Test
        void groupedPutsEachKeysItemsTogetherInOneShare() {
            Spread<Integer> many = shares(List.of(1, 2, 3, 4), List.of(5, 6), List.of(), List.of(7, 10));
            Spread<List<Integer>> groups = many.grouped(i -> i % 3, 2);
            Set<List<Integer>> found = new HashSet<>();
            for (List<Integer> g : groups.collect()) found.add(sorted(g));
            assertEquals(Set.of(List.of(1, 4, 7, 10), List.of(2, 5), List.of(3, 6)), found);
            assertEquals(3, groups.count());
            assertEquals(List.of(), spread(List.<Integer>of()).grouped(i -> i, 2).collect());
            assertEquals(List.of(List.of(8)), spread(List.of(8)).grouped(i -> i, 4).collect());
        }

        @Test
        void distinctKeepsOneItemOfEachKey() {
            Spread<String> many = shares(List.of("a1", "b1"), List.of("a2", "c1"), List.of("b2"));
            List<String> one = many.distinct(s -> s.charAt(0)).collect();
            Map<Character, String> byKey = new TreeMap<>();
            for (String s : one) assertEquals(null, byKey.put(s.charAt(0), s), "one item per key: " + one);
            assertEquals(Set.of('a', 'b', 'c'), byKey.keySet());
            assertTrue(many.collect().containsAll(one), one.toString());
            assertEquals(List.of(1, 2), sorted(shares(List.of(1, 2, 1), List.of(2, 1)).distinct(i -> i).collect()));
            assertEquals(List.of(), spread(List.<Integer>of()).distinct(i -> i).collect());
        }

        @Test
        void markedMarksEachItemOnceWhetherItsKeyIsAmongTheKeys() {
            Spread<Integer> many = shares(List.of(1, 2, 3), List.of(4, 2));
            List<String> marks = many.marked(i -> i % 10, shares(List.of(2, 9), List.of(4))).mapShares(share ->
                    share.stream().map(m -> m.item() + (m.marked() ? "+" : "-")).toList()).collect();
            assertEquals(List.of("1-", "2+", "2+", "3-", "4+"), sorted(marks));
            assertEquals(List.of(false, false, false, false), many.filter(i -> i < 4).marked(i -> i, spread(List.<Integer>of()))
                    .mapShares(share -> share.stream().map(Spread.Marked::marked).toList()).collect());
            assertEquals(List.of(), spread(List.<Integer>of()).marked(i -> i, spread(List.of(1))).collect());
        }

        @Test
        void markedMarksOnceAKeyGivenTwice() {
            List<Spread.Marked<Integer>> marks = spread(List.of(1, 2)).marked(i -> i, shares(List.of(2, 2), List.of(2))).collect();
            assertEquals(2, marks.size(), marks.toString());
        }

        @Test
        void meetHandsEachKeyBothSidesItems() {
            Spread<String> here = shares(List.of("a1", "b1"), List.of("a2"));
            Spread<String> there = shares(List.of("a9"), List.of("c9", "c8"));
            List<String> met = here.meet(s -> s.charAt(0), there, s -> s.charAt(0),
                    (h, t) -> List.of(String.join(",", sorted(h)) + "|" + String.join(",", sorted(t)))).collect();
            assertEquals(List.of("a1,a2|a9", "b1|", "|c8,c9"), sorted(met));
            assertEquals(List.of(), spread(List.<String>of()).meet(s -> s, spread(List.<String>of()), s -> s,
                    (h, t) -> List.of("never")).collect());
        }

        @Test
        void dealtCutsTheItemsInOrderIntoSharesOfPerTask() {
            Spread<Integer> many = shares(List.of(1, 2, 3), List.of(), List.of(4, 5), List.of(6));
            assertEquals(List.of(List.of(1, 2), List.of(3, 4), List.of(5, 6)), sharesOf(many.dealt(2, "deal").orElseThrow()));
            assertEquals(List.of(List.of(1, 2, 3, 4), List.of(5, 6)), sharesOf(many.dealt(4, "deal").orElseThrow()));
            assertEquals(List.of(List.of(1, 2, 3, 4, 5, 6)), sharesOf(many.dealt(100, "deal").orElseThrow()));
            assertEquals(List.of(List.of(7)), sharesOf(spread(List.of(7)).dealt(1, "deal").orElseThrow()));
            assertEquals(Optional.empty(), shares(List.<Integer>of(), List.of()).dealt(3, "deal"));
        }

        @Test
        void spreadOverDealsTheItemsFairlyIntoThatManyShares() {
            Spread<Integer> many = shares(range(0, 7), range(7, 10));
            List<List<Integer>> over = sharesOf(many.spreadOver(3));
            assertEquals(3, over.size());
            assertEquals(range(0, 10), sorted(over.stream().flatMap(List::stream).toList()));
            for (List<Integer> share : over) assertTrue(share.size() >= 2 && share.size() <= 5, over.toString());
            assertEquals(List.of(List.of(1), List.of(), List.of()), sorted3(sharesOf(spread(List.of(1)).spreadOver(3))));
            assertEquals(List.of(List.of(), List.of()), sharesOf(spread(List.<Integer>of()).spreadOver(2)));
            assertEquals(List.of(List.of(3, 1, 2, 5, 4)), sharesOf(shares(List.of(3, 1), List.of(), List.of(2, 5, 4)).spreadOver(1)));
        }

        /** The shares, the longest first. */
        private static List<List<Integer>> sorted3(List<List<Integer>> shares) {
            List<List<Integer>> out = new ArrayList<>(shares);
            out.sort((a, b) -> b.size() - a.size());
            return out;
        }

        @Test
        void countByCountsTheItemsOfEachValue() {
            Spread<Integer> many = shares(List.of(0, 2, 2), List.of(), List.of(5, 2));
            assertEquals(List.of(1L, 0L, 3L, 0L, 0L, 1L), longs(many.countBy(i -> i, "count")));
            assertEquals(List.of(), longs(spread(List.<Integer>of()).countBy(i -> i, "count")));
        }

        private static List<Long> longs(long[] a) {
            return Arrays.stream(a).boxed().toList();
        }

        @Test
        void takeGivesTheFirstItemsInOrder() {
            Spread<Integer> many = shares(List.of(5, 1), List.of(), List.of(4, 2, 3));
            assertEquals(List.of(5, 1, 4), many.take(3));
            assertEquals(List.of(5, 1, 4, 2, 3), many.take(10));
            assertEquals(List.of(), many.take(0));
            assertEquals(List.of(), spread(List.of()).take(2));
        }

        @Test
        void takeOrderedGivesTheFirstItemsInThatOrder() {
            Spread<Integer> many = shares(List.of(5, 1), List.of(), List.of(4, 2, 3));
            assertEquals(List.of(5, 4), many.takeOrdered(2, (a, b) -> b - a));
            assertEquals(List.of(1, 2, 3, 4, 5), many.takeOrdered(10, Integer::compare));
            assertEquals(List.of(), spread(List.<Integer>of()).takeOrdered(2, Integer::compare));
        }

        /** Each task's work: its share's sum as bytes, and one verified per task. */
        private static BatchResult summed(List<Integer> share) {
            CopyCounts counts = new CopyCounts();
            share.forEach(counts::addBytes);
            counts.addVerified();
            return BatchResult.of(counts);
        }

        private CopyOptions copy() {
            return options.copy();
        }

        @Test
        void runRunsEachNonEmptyShareAsOneTaskAndAddsTheirCounts() {
            Spread<Integer> many = shares(List.of(1, 2), List.of(), List.of(4));
            CopyCounts counts = many.run("sum", copy(), (engine, share) -> summed(share));
            assertEquals(List.of(7L, 2L), List.of(counts.bytesCopied(), counts.verified()));
            CopyCounts none = spread(List.<Integer>of()).run("none", copy(), (engine, share) -> summed(share));
            assertEquals(List.of(0L, 0L), List.of(none.bytesCopied(), none.verified()));
        }

        @Test
        void runKeptKeepsEachTasksResult() {
            Spread<Integer> many = shares(List.of(1, 2), List.of(), List.of(4));
            CopyCounts counts = new CopyCounts();
            Spread<BatchResult> results = many.runKept("sum", copy(), (engine, share) -> summed(share), counts);
            assertEquals(List.of(7L, 2L), List.of(counts.bytesCopied(), counts.verified()));
            assertEquals(List.of(3L, 4L), sorted(results.mapShares(r -> r.stream().map(b -> b.counts().bytesCopied()).toList()).collect()));
        }

        @Test
        void aKeptShareLostIsComputedAgainAlike() {
            Spread<Integer> many = shares(range(0, 5), List.of(), range(5, 12));
            Spread<Integer> kept = many.mapShares(Tests::dealing).dealt(5, "deal").orElseThrow().mapShares(Tests::counted).kept();
            List<List<Integer>> before = sharesOf(kept);
            assertEquals(List.of(range(0, 5), range(5, 10), range(10, 12)), before);
            int dealt = DEALING.get(), computed = COMPUTED.get();
            boolean lost = lose(kept);
            assertEquals(before, sharesOf(kept));
            assertEquals(range(0, 12), kept.collect());
            assertEquals(List.of(lost, lost), List.of(DEALING.get() > dealt, COMPUTED.get() > computed),
                    "dealt and computed again exactly when lost");
        }

        @Test
        void aKeptGroupingLostIsComputedAgainAlike() {
            Spread<List<Integer>> kept = shares(range(0, 20), range(20, 30)).grouped(i -> i % 4, 3)
                    .mapShares(groups -> groups.stream().map(Tests::sorted).toList()).kept();
            Set<List<Integer>> before = new HashSet<>(kept.collect());
            lose(kept);
            assertEquals(before, new HashSet<>(kept.collect()));
            assertEquals(4, before.size());
        }

        private static Set<String> pathsOf(Spread<DirectoryBlock> blocks) {
            return new TreeSet<>(blocks.mapShares(share -> {
                List<String> paths = new ArrayList<>();
                for (DirectoryBlock b : share) {
                    paths.add(PathBytes.display(b.path()));
                    for (Entry e : b.files()) paths.add(e.display());
                }
                return paths;
            }).collect());
        }

        @Test
        void arrivalsListTheWholeSourceAndItsSummary() {
            Set<String> paths = new TreeSet<>();
            for (Spread<DirectoryBlock> arrival : listed.arrivals()) paths.addAll(pathsOf(arrival));
            assertEquals(new TreeSet<>(List.of(".", "a", "a/b", "c", "a/b/two", "a/one")), paths);
            ListingSummary summary = listed.summary();
            assertEquals(List.of(6L, 3L, 0L), List.of(summary.entries(), summary.fileBytes(), (long) summary.errors().size()));
        }

        @Test
        void wholeListingIsEveryArrival() {
            assertEquals(new TreeSet<>(List.of(".", "a", "a/b", "c", "a/b/two", "a/one")), pathsOf(listed.wholeListing()));
            assertEquals(6, listed.summary().entries());
        }

        @Test
        void destinationIsWalkedWhereTheSourceWas() {
            Listed.Walked dst = listed.destination(options.copy().destinationRoot(), false, Filter.NONE);
            assertEquals(new TreeSet<>(List.of(".", "x", "x/three")), pathsOf(dst.blocks()));
            assertEquals(3, dst.summary().entries());
        }

        @Test
        void startRunsEachSubmittedItemAsATask() {
            try (Listed.SpreadFeed<List<Integer>> running = listed.start("sum", copy(), (engine, share) -> summed(share))) {
                running.submit(spread(List.of(List.of(1, 2), List.of(3))));
                running.submit(spread(List.of(List.of(4))));
                CopyCounts counts = running.finish();
                assertEquals(List.of(10L, 3L), List.of(counts.bytesCopied(), counts.verified()));
            }
            try (Listed.SpreadFeed<List<Integer>> none = listed.start("none", copy(), (engine, share) -> summed(share))) {
                assertEquals(0, none.finish().verified());
            }
        }
    }
}

package io.sparkdcp.job.exec;

import io.sparkdcp.copy.BatchResult;
import io.sparkdcp.copy.CopyCounts;
import io.sparkdcp.copy.options.CopyOptions;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** A {@link Spread} held on the driver as lists, one per share; its phases run on a {@link PhaseRunner}. */
final class LocalSpread<T> implements Spread<T> {
    private final PhaseRunner runner;
    private final List<List<T>> shares;

    LocalSpread(PhaseRunner runner, List<List<T>> shares) {
        this.runner = runner;
        this.shares = shares;
    }

    /** One share of all the items. */
    static <T> LocalSpread<T> of(PhaseRunner runner, List<T> items) {
        return new LocalSpread<>(runner, List.of(items));
    }

    List<T> items() {
        if (shares.size() == 1) return shares.get(0);
        List<T> all = new ArrayList<>();
        shares.forEach(all::addAll);
        return all;
    }

    private <R> LocalSpread<R> with(List<R> items) {
        return of(runner, items);
    }

    private static <T> List<T> itemsOf(Spread<T> spread) {
        return ((LocalSpread<T>) spread).items(); // made by the same Listed: lists too
    }

    @Override
    public <R> Spread<R> mapShares(ShareFunction<T, R> function) {
        List<List<R>> out = new ArrayList<>();
        for (List<T> share : shares) {
            List<R> made = new ArrayList<>();
            function.apply(share).forEach(made::add);
            out.add(made);
        }
        return new LocalSpread<>(runner, out);
    }

    @Override
    public <R> Spread<R> mapInTasks(String phase, ShareFunction<T, R> function) {
        List<List<R>> out = runner.map(phase, shares, share -> {
            List<R> made = new ArrayList<>();
            function.apply(share).forEach(made::add);
            return made;
        });
        return new LocalSpread<>(runner, out);
    }

    @Override
    public Spread<T> filter(Test<T> test) {
        List<List<T>> out = new ArrayList<>();
        for (List<T> share : shares) out.add(share.stream().filter(test::holds).toList());
        return new LocalSpread<>(runner, out);
    }

    @Override
    public Spread<T> kept() { return this; }

    @Override
    public Spread<T> union(Spread<T> other) {
        List<List<T>> out = new ArrayList<>(shares);
        out.addAll(((LocalSpread<T>) other).shares);
        return new LocalSpread<>(runner, out);
    }

    @Override
    public <K> Spread<List<T>> grouped(Key<T, K> key, int groups) {
        return with(new ArrayList<>(byKey(items(), key).values()));
    }

    @Override
    public <K> Spread<T> distinct(Key<T, K> key) {
        Map<K, T> first = new LinkedHashMap<>();
        for (T item : items()) first.putIfAbsent(key.of(item), item);
        return with(new ArrayList<>(first.values()));
    }

    @Override
    public <K> Spread<Marked<T>> marked(Key<T, K> key, Spread<K> keys) {
        Set<K> in = new HashSet<>(itemsOf(keys));
        return with(items().stream().map(item -> new Marked<>(item, in.contains(key.of(item)))).toList());
    }

    @Override
    public <U, K, R> Spread<R> meet(Key<T, K> key, Spread<U> other, Key<U, K> otherKey, Meeting<T, U, R> meeting) {
        Map<K, List<T>> here = byKey(items(), key);
        Map<K, List<U>> there = byKey(itemsOf(other), otherKey);
        List<R> out = new ArrayList<>();
        for (Map.Entry<K, List<T>> e : here.entrySet())
            meeting.apply(e.getValue(), there.getOrDefault(e.getKey(), List.of())).forEach(out::add);
        for (Map.Entry<K, List<U>> e : there.entrySet())
            if (!here.containsKey(e.getKey())) meeting.apply(List.of(), e.getValue()).forEach(out::add);
        return with(out);
    }

    /** The items of each key, the keys in the order first met. */
    private static <T, K> Map<K, List<T>> byKey(List<T> items, Key<T, K> key) {
        Map<K, List<T>> out = new LinkedHashMap<>();
        for (T item : items) out.computeIfAbsent(key.of(item), k -> new ArrayList<>()).add(item);
        return out;
    }

    @Override
    public Optional<Spread<T>> dealt(long perTask, String job) {
        List<T> all = items();
        if (all.isEmpty()) return Optional.empty();
        int n = (int) Math.min(Integer.MAX_VALUE, perTask);
        List<List<T>> out = new ArrayList<>();
        for (int i = 0; i < all.size(); i += n) out.add(new ArrayList<>(all.subList(i, Math.min(all.size(), i + n))));
        return Optional.of(new LocalSpread<>(runner, out));
    }

    @Override
    public Spread<T> spreadOver(int count) {
        List<List<T>> out = new ArrayList<>();
        for (int i = 0; i < count; i++) out.add(new ArrayList<>());
        List<T> all = items();
        for (int i = 0; i < all.size(); i++) out.get(i % count).add(all.get(i));
        return new LocalSpread<>(runner, out);
    }

    @Override
    public long[] countBy(Key<T, Integer> of, String job) {
        long[] counts = new long[0];
        for (T item : items()) {
            int i = of.of(item);
            if (counts.length <= i) counts = java.util.Arrays.copyOf(counts, i + 1);
            counts[i]++;
        }
        return counts;
    }

    @Override
    public List<T> take(int n) {
        List<T> all = items();
        return all.subList(0, Math.min(n, all.size()));
    }

    @Override
    public long count() { return shares.stream().mapToLong(List::size).sum(); }

    @Override
    public List<T> collect() { return items(); }

    @Override
    public CopyCounts run(String phase, CopyOptions options, TaskWork<List<T>> work) {
        CopyCounts counts = new CopyCounts();
        runKept(phase, options, work, counts);
        return counts;
    }

    @Override
    public Spread<BatchResult> runKept(String phase, CopyOptions options, TaskWork<List<T>> work, CopyCounts counts) {
        List<List<T>> tasks = shares.stream().filter(s -> !s.isEmpty()).toList();
        List<BatchResult> results = runner.run(phase, tasks, options, work);
        for (BatchResult r : results) counts.merge(r.counts());
        return with(results);
    }

    @Override
    public List<T> takeOrdered(int n, Order<T> order) {
        return items().stream().sorted(order).limit(n).toList();
    }
}

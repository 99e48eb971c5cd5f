package io.sparkdcp.job.exec;

import io.sparkdcp.copy.BatchResult;
import io.sparkdcp.copy.CopyCounts;
import io.sparkdcp.copy.options.CopyOptions;

import java.io.Serializable;
import java.util.List;
import java.util.Optional;

/**
 * Items spread over shares, each share one task's input: lists on the driver (threads, or Spark
 * tasks made from them) or an RDD's partitions on the executors. The copy's recipe is written over
 * these few operations only, so it reads the same wherever the listing lives. On the executors the
 * operations are lazy and {@link #run} is a result stage: each task's counts come from one attempt.
 */
public interface Spread<T> {
    /** A share's items in, what they make out: runs once per share, where the share lives. */
    @FunctionalInterface
    interface ShareFunction<T, R> extends Serializable {
        Iterable<R> apply(List<T> share);
    }

    @FunctionalInterface
    interface Key<T, K> extends Serializable {
        K of(T item);
    }

    @FunctionalInterface
    interface Test<T> extends Serializable {
        boolean holds(T item);
    }

    /** For one key, the items of each side that have it, in: what they make out (a co-group). */
    @FunctionalInterface
    interface Meeting<T, U, R> extends Serializable {
        Iterable<R> apply(List<T> here, List<U> there);
    }

    /** An item and whether its key was among given keys. */
    record Marked<T>(T item, boolean marked) implements Serializable {}

    <R> Spread<R> mapShares(ShareFunction<T, R> function);

    /** {@link #mapShares}, each share a task of a phase that runs in parallel (on the driver's lists too). */
    <R> Spread<R> mapInTasks(String phase, ShareFunction<T, R> function);

    Spread<T> filter(Test<T> test);

    /** Kept where it is computed until the job ends (on the executors: persisted, on two of them). */
    Spread<T> kept();

    /** Both spreads' items: {@code other} must live where this one does (made by the same {@link Listed}). */
    Spread<T> union(Spread<T> other);

    /** The items with one key each together, as a share's items; about {@code groups} shares. */
    <K> Spread<List<T>> grouped(Key<T, K> key, int groups);

    /** One item per key (the first met). */
    <K> Spread<T> distinct(Key<T, K> key);

    /** Each item, marked when its key is one of {@code keys} (a left join). */
    <K> Spread<Marked<T>> marked(Key<T, K> key, Spread<K> keys);

    /** The items whose key is not one of {@code keys}. */
    <K> Spread<T> without(Key<T, K> key, Spread<K> keys);

    /** What {@code meeting} makes of the items of both spreads grouped by their keys. */
    <U, K, R> Spread<R> meet(Key<T, K> key, Spread<U> other, Key<U, K> otherKey, Meeting<T, U, R> meeting);

    /** All items in one share. */
    Spread<T> oneShare();

    /**
     * The items in order (each share's items, the shares in turn), {@code perTask} to a share; empty
     * when there are none. Recomputed alike: a share's items do not depend on timing.
     *
     * @param job names the work of numbering them (a Spark job)
     */
    Optional<Spread<T>> dealt(long perTask, String job);

    /** The items dealt round robin into {@code shares} shares, recomputed alike. */
    Spread<T> spreadOver(int shares);

    /** How many items give each value of {@code of} (a small non-negative int: a depth), indexed by it; {@code job} names the work. */
    long[] countBy(Key<T, Integer> of, String job);

    List<T> take(int n);

    long count();

    List<T> collect();

    /** A phase: the engine's work on each non-empty share as one task; its counts, added up. */
    CopyCounts run(String phase, CopyOptions options, TaskWork<List<T>> work);

    /** {@link #run}, keeping each task's result for later phases; the counts go into {@code counts}. */
    Spread<BatchResult> runKept(String phase, CopyOptions options, TaskWork<List<T>> work, CopyCounts counts);

    /** An order that travels to the executors. */
    @FunctionalInterface
    interface Order<T> extends java.util.Comparator<T>, Serializable {}

    /** The first {@code n} items in {@code order}. */
    List<T> takeOrdered(int n, Order<T> order);
}

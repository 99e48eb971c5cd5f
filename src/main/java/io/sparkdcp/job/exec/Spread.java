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
 *
 * <p>The contract both implementations keep (SpreadContract's tests hold them to it):
 * <ul>
 *   <li><b>Order.</b> A spread's items are in order: each share's, the shares in turn ({@link #collect},
 *   {@link #take}). {@link #mapShares}, {@link #mapInTasks} and {@link #filter} keep the shares and their
 *   order, {@link #union} puts the other's shares after these, {@link #dealt} keeps the order; the
 *   operations that group by key ({@link #grouped}, {@link #distinct}, {@link #marked}, {@link #meet})
 *   and {@link #spreadOver} more than one share promise no order and no particular shares.</li>
 *   <li><b>Laziness.</b> The operations that make a spread compute nothing on the executors until an
 *   action ({@link #collect}, {@link #count}, {@link #take}, {@link #takeOrdered}, {@link #countBy},
 *   {@link #run}, {@link #runKept}, or {@link #dealt}'s counting); on the driver they compute at once.
 *   A function handed to them may run more than once for one share: it must give the same items each
 *   time (no clock, no counter, no order of a shuffle).</li>
 *   <li><b>Recomputation.</b> On the executors a share lost with its executor is computed again from
 *   its lineage; {@link #kept} saves that for what is costly to compute. A spread made with the same
 *   functions from the same shares in the same order holds the same shares ({@link #dealt},
 *   {@link #spreadOver}); the output of a shuffle (the operations that group by key) holds the same items
 *   but not always in the same order, so a share computed from it puts them in an order of its own
 *   before it numbers or cuts them.</li>
 *   <li><b>Who runs it.</b> Functions run where the share lives: the driver's threads (a {@link
 *   PhaseRunner}'s tasks for {@link #mapInTasks} and the phases) or the executors; the actions' results
 *   come to the driver, so an action's result must fit there.</li>
 * </ul>
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

    /** What {@code function} makes of each share, as a share in its place (empty shares included). */
    <R> Spread<R> mapShares(ShareFunction<T, R> function);

    /** {@link #mapShares}, each share a task of a phase that runs in parallel (on the driver's lists too). */
    <R> Spread<R> mapInTasks(String phase, ShareFunction<T, R> function);

    /** The items that pass {@code test}, each share in its place. */
    Spread<T> filter(Test<T> test);

    /**
     * The same items, kept where they are computed until the {@link Listed} is closed (on the executors:
     * persisted, on two of them); a lost share is computed again, alike.
     */
    Spread<T> kept();

    /** Both spreads' items: {@code other} must live where this one does (made by the same {@link Listed}). */
    Spread<T> union(Spread<T> other);

    /**
     * The items of each key together, as one item (a list, in no order); each key's list in one share,
     * the keys in no order over about {@code groups} shares (one on the driver).
     */
    <K> Spread<List<T>> grouped(Key<T, K> key, int groups);

    /** One item per key: on the driver the first met, on the executors any one of them. */
    <K> Spread<T> distinct(Key<T, K> key);

    /** Each item once, marked when its key is one of {@code keys} (which may repeat), in no order. */
    <K> Spread<Marked<T>> marked(Key<T, K> key, Spread<K> keys);

    /**
     * What {@code meeting} makes of the items of both spreads grouped by their keys: called once for each
     * key either side has (the other side's list then empty), in no order.
     */
    <U, K, R> Spread<R> meet(Key<T, K> key, Spread<U> other, Key<U, K> otherKey, Meeting<T, U, R> meeting);

    /**
     * The items in order (each share's items, the shares in turn), {@code perTask} to a share; empty
     * when there are none. Recomputed alike: a share's items do not depend on timing.
     *
     * @param job names the work of numbering them (a Spark job)
     */
    Optional<Spread<T>> dealt(long perTask, String job);

    /**
     * The items dealt round robin into {@code shares} shares (empty ones too), recomputed alike: the
     * shares' sizes differ by at most one on the driver, by at most the spread's shares on the executors;
     * one share keeps the order.
     */
    Spread<T> spreadOver(int shares);

    /**
     * How many items give each value of {@code of} (a small non-negative int: a depth), indexed by it up
     * to the largest value met (none: empty); {@code job} names the work.
     */
    long[] countBy(Key<T, Integer> of, String job);

    /** The first {@code n} items, in order (all when fewer). */
    List<T> take(int n);

    long count();

    /** Every item, in order, on the driver. */
    List<T> collect();

    /**
     * A phase: the engine's work on each non-empty share as one task (on the {@link PhaseRunner}'s threads
     * or the executors); its counts, added up, each task's from one attempt.
     */
    CopyCounts run(String phase, CopyOptions options, TaskWork<List<T>> work);

    /**
     * {@link #run}, keeping each task's result for later phases (one item per task, kept as {@link #kept}
     * keeps, a recomputation's counts not counted again); the counts go into {@code counts}.
     */
    Spread<BatchResult> runKept(String phase, CopyOptions options, TaskWork<List<T>> work, CopyCounts counts);

    /** An order that travels to the executors. */
    @FunctionalInterface
    interface Order<T> extends java.util.Comparator<T>, Serializable {}

    /** The first {@code n} items in {@code order} (all when fewer). */
    List<T> takeOrdered(int n, Order<T> order);
}

package io.sparkdcp.spark;

import io.sparkdcp.copy.BatchResult;
import io.sparkdcp.copy.CopyCounts;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.job.exec.Spread;
import io.sparkdcp.job.exec.TaskWork;
import org.apache.spark.HashPartitioner;
import org.apache.spark.Partitioner;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.StreamSupport;

/**
 * A {@link Spread} on the executors: an RDD, one share per partition. Operations are lazy; a phase is
 * a result stage ({@link SparkPhaseRunner#onPartitions}) whose counts the driver takes from one action.
 * The one class besides {@link ScalaAdapter} that holds pair RDDs (Scala's tuples).
 */
final class RddSpread<T> implements Spread<T> {
    /**
     * Kept on two executors: a lost executor's partitions need not be computed again (a walk round's
     * would list the source again; it would list the same share, {@link io.sparkdcp.job.exec.RoundCuts}, but slowly).
     */
    private static final StorageLevel KEPT = StorageLevel.MEMORY_AND_DISK_SER_2();

    /** The RDDs this job persisted, dropped when it ends. */
    record Job(SparkPhaseRunner runner, List<JavaRDD<?>> persisted) {
        Job(SparkPhaseRunner runner) {
            this(runner, new ArrayList<>());
        }

        <R> RddSpread<R> spread(JavaRDD<R> rdd) {
            return new RddSpread<>(this, rdd);
        }

        <R> JavaRDD<R> persist(JavaRDD<R> rdd) {
            persisted.add(rdd.persist(kept(rdd.context())));
            return rdd;
        }

        void release() {
            for (JavaRDD<?> rdd : persisted) rdd.unpersist(false);
            persisted.clear();
        }
    }

    private final Job job;
    private final JavaRDD<T> rdd;

    private RddSpread(Job job, JavaRDD<T> rdd) {
        this.job = job;
        this.rdd = rdd;
    }

    JavaRDD<T> rdd() { return rdd; }

    /**
     * {@link #KEPT}, but with one copy in local mode: its one block manager has no peer to hold a
     * second, and Spark would warn of that for every block.
     */
    static StorageLevel kept(SparkContext sc) {
        return sc.isLocal() ? StorageLevel.MEMORY_AND_DISK_SER() : KEPT;
    }

    private static <T> JavaRDD<T> rddOf(Spread<T> spread) {
        return ((RddSpread<T>) spread).rdd; // made by the same Listed: an RDD too
    }

    @Override
    public <R> Spread<R> mapShares(ShareFunction<T, R> function) {
        return job.spread(rdd.mapPartitions(share -> function.apply(listOf(share)).iterator(), true));
    }

    /** Named for the job that computes it, which the caller runs next. */
    @Override
    public <R> Spread<R> mapInTasks(String phase, ShareFunction<T, R> function) {
        rdd.context().setJobDescription("spark-dcp: " + phase);
        return job.spread(rdd.mapPartitions(share -> function.apply(listOf(share)).iterator(), false));
    }

    @Override
    public Spread<T> filter(Test<T> test) {
        return job.spread(rdd.filter(test::holds));
    }

    @Override
    public Spread<T> kept() {
        return job.spread(job.persist(rdd));
    }

    @Override
    public Spread<T> union(Spread<T> other) {
        return job.spread(rdd.union(rddOf(other)));
    }

    @Override
    public <K> Spread<List<T>> grouped(Key<T, K> key, int groups) {
        return job.spread(keyed(rdd, key).groupByKey(groups)
                .map(byKey -> listOf(byKey._2().iterator())));
    }

    @Override
    public <K> Spread<T> distinct(Key<T, K> key) {
        return job.spread(keyed(rdd, key).reduceByKey((a, b) -> a).values());
    }

    @Override
    public <K> Spread<Marked<T>> marked(Key<T, K> key, Spread<K> keys) {
        // A co-group, not a join: a key given twice marks its items once, as on the driver.
        JavaPairRDD<K, Boolean> in = rddOf(keys).mapToPair(k -> new Tuple2<>(k, true));
        return job.spread(keyed(rdd, key).cogroup(in).flatMap(byKey -> {
            boolean marked = byKey._2()._2().iterator().hasNext();
            List<Marked<T>> out = new ArrayList<>();
            for (T item : byKey._2()._1()) out.add(new Marked<>(item, marked));
            return out.iterator();
        }));
    }

    @Override
    public <U, K, R> Spread<R> meet(Key<T, K> key, Spread<U> other, Key<U, K> otherKey, Meeting<T, U, R> meeting) {
        JavaPairRDD<K, T> here = keyed(rdd, key);
        JavaPairRDD<K, U> there = keyed(rddOf(other), otherKey);
        return job.spread(here.cogroup(there).flatMap(byKey ->
                meeting.apply(listOf(byKey._2()._1().iterator()), listOf(byKey._2()._2().iterator())).iterator()));
    }

    /** Each item with its key, as Spark's pair operations take them. */
    private static <T, K> JavaPairRDD<K, T> keyed(JavaRDD<T> items, Key<T, K> key) {
        return items.mapToPair(item -> new Tuple2<>(key.of(item), item));
    }

    /**
     * Items numbered in order and dealt {@code perTask} to a partition. One job counts each partition's
     * items (as zipWithIndex would, but without its second count of the whole RDD); the numbering itself
     * is done as the items are shuffled.
     */
    @Override
    public Optional<Spread<T>> dealt(long perTask, String description) {
        rdd.context().setJobDescription("spark-dcp: " + description);
        List<Long> sizes = rdd.mapPartitions(part -> {
            long size = 0;
            for (; part.hasNext(); part.next()) size++;
            return List.of(size).iterator();
        }).collect();
        long[] first = new long[sizes.size()];
        long n = 0;
        for (int p = 0; p < first.length; p++) {
            first[p] = n;
            n += sizes.get(p);
        }
        if (n == 0) return Optional.empty();
        IndexPartitioner partitioner = new IndexPartitioner((int) Math.min(Integer.MAX_VALUE, (n + perTask - 1) / perTask), perTask);
        return Optional.of(job.spread(rdd.mapPartitionsWithIndex((p, part) -> numbered(first[p], part), true)
                .mapToPair(t -> t).partitionBy(partitioner).values()));
    }

    /** One share without a shuffle: the partitions in turn, in order. */
    @Override
    public Spread<T> spreadOver(int shares) {
        return job.spread(shares == 1 ? rdd.coalesce(1) : dealt(rdd, shares));
    }

    /**
     * The items dealt round-robin to {@code tasks} partitions, as {@code repartition} deals them, but by a
     * number Spark sees as recomputable: a repartition of a shuffle's output is INDETERMINATE, and when such
     * a stage must run again (its map output lost with an executor) after tasks of the next stage ended,
     * Spark aborts the whole job instead of retrying it.
     */
    static <T> JavaRDD<T> dealt(JavaRDD<T> items, int tasks) {
        return items.mapPartitionsWithIndex((p, part) -> numbered(p, part), false)
                .mapToPair(t -> t).partitionBy(new HashPartitioner(tasks)).values();
    }

    /** The items, streamed, each with its number from {@code first} on. */
    private static <T> Iterator<Tuple2<Long, T>> numbered(long first, Iterator<T> items) {
        long[] next = {first};
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(items, Spliterator.ORDERED), false)
                .map(item -> new Tuple2<>(next[0]++, item)).iterator();
    }

    @Override
    public long[] countBy(Key<T, Integer> of, String description) {
        rdd.context().setJobDescription("spark-dcp: " + description);
        return rdd.map(of::of).aggregate(new long[0], RddSpread::count, RddSpread::add);
    }

    private static long[] count(long[] counts, int i) {
        long[] out = counts.length > i ? counts : Arrays.copyOf(counts, i + 1);
        out[i]++;
        return out;
    }

    private static long[] add(long[] a, long[] b) {
        long[] out = Arrays.copyOf(a, Math.max(a.length, b.length));
        for (int i = 0; i < b.length; i++) out[i] += b[i];
        return out;
    }

    @Override
    public List<T> take(int n) { return rdd.take(n); }

    @Override
    public long count() { return rdd.count(); }

    @Override
    public List<T> collect() { return rdd.collect(); }

    @Override
    public CopyCounts run(String phase, CopyOptions options, TaskWork<List<T>> work) {
        CopyCounts counts = new CopyCounts();
        for (CopyCounts c : job.runner().counts(stage(phase, options, work))) counts.merge(c);
        return counts;
    }

    @Override
    public Spread<BatchResult> runKept(String phase, CopyOptions options, TaskWork<List<T>> work, CopyCounts counts) {
        JavaRDD<BatchResult> stage = job.persist(stage(phase, options, work));
        for (CopyCounts c : job.runner().counts(stage)) counts.merge(c);
        return job.spread(stage);
    }

    /** The engine's work on each partition, named in Spark's UI. */
    private JavaRDD<BatchResult> stage(String phase, CopyOptions options, TaskWork<List<T>> work) {
        rdd.context().setJobDescription("spark-dcp: " + phase);
        return job.runner().onPartitions(rdd, options, work);
    }

    private static <T> List<T> listOf(Iterator<T> it) {
        List<T> all = new ArrayList<>();
        it.forEachRemaining(all::add);
        return all;
    }

    /** Item i goes to partition i / perTask. */
    static final class IndexPartitioner extends Partitioner {
        private final int partitions;
        private final long perTask;

        IndexPartitioner(int partitions, long perTask) {
            this.partitions = partitions;
            this.perTask = perTask;
        }

        @Override
        public int numPartitions() { return partitions; }

        @Override
        public int getPartition(Object key) { return (int) ((Long) key / perTask); }
    }

    @Override
    public List<T> takeOrdered(int n, Order<T> order) { return rdd.takeOrdered(n, order); }
}

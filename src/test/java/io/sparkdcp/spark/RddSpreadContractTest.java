package io.sparkdcp.spark;

import io.sparkdcp.job.exec.JobOptions;
import io.sparkdcp.job.exec.Listed;
import io.sparkdcp.job.exec.Spread;
import io.sparkdcp.job.exec.SpreadContract;
import org.apache.spark.Dependency;
import org.apache.spark.MapOutputTrackerMaster;
import org.apache.spark.ShuffleDependency;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.rdd.RDD;
import org.apache.spark.storage.BlockManager;
import org.apache.spark.storage.RDDBlockId;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import scala.jdk.javaapi.CollectionConverters;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link SpreadContract} on RDDs (local Spark, two slots, started once for the class), and what only
 * RDDs can do: lose a kept partition, and drop what was kept when the job ends.
 */
class RddSpreadContractTest extends SpreadContract.Tests {
    private static JavaSparkContext sc;
    private static SparkPhaseRunner runner;

    @BeforeAll
    static void start() {
        sc = new JavaSparkContext(new SparkConf().setAppName("spark-dcp-test").setMaster("local[2]")
                .set("spark.ui.enabled", "false").set("spark.speculation", "false"));
        runner = new SparkPhaseRunner(sc);
    }

    @AfterAll
    static void stop() {
        if (sc != null) sc.stop();
    }

    /** A walk task's budget of one entry: the listing comes from several rounds of walk tasks. */
    @Override
    protected Listed listing(JobOptions options) {
        return new RddListed(runner, options, message -> {}, 1);
    }

    /**
     * Each kept partition's block removed from the block manager and the executor's shuffle output
     * forgotten, as when the executor is lost: the next job computes the shuffle's map side again.
     */
    @Override
    protected boolean lose(Spread<?> spread) {
        RDD<?> kept = ((RddSpread<?>) spread).rdd().rdd();
        int rdd = kept.id();
        BlockManager blocks = SparkEnv.get().blockManager();
        int lost = 0;
        for (int p = 0; p < kept.getNumPartitions(); p++) {
            RDDBlockId block = new RDDBlockId(rdd, p);
            if (blocks.getStatus(block).isEmpty()) continue;
            blocks.removeBlock(block, true);
            assertTrue(blocks.getStatus(block).isEmpty(), block + " still kept");
            lost++;
        }
        assertTrue(lost > 0, "no partition of RDD " + rdd + " was kept");
        MapOutputTrackerMaster outputs = (MapOutputTrackerMaster) SparkEnv.get().mapOutputTracker();
        outputs.removeOutputsOnExecutor(SparkEnv.get().executorId());
        List<Integer> shuffles = shufflesOf(kept);
        assertTrue(!shuffles.isEmpty(), "no shuffle made RDD " + rdd);
        for (int shuffle : shuffles) assertEquals(0, outputs.getNumAvailableOutputs(shuffle));
        return true;
    }

    /** The shuffles in {@code rdd}'s lineage. */
    private static List<Integer> shufflesOf(RDD<?> rdd) {
        List<Integer> out = new ArrayList<>();
        for (Dependency<?> d : CollectionConverters.asJava(rdd.dependencies())) {
            if (d instanceof ShuffleDependency<?, ?, ?> s) out.add(s.shuffleId());
            out.addAll(shufflesOf(d.rdd()));
        }
        return out;
    }

    @Test
    void closingTheListingDropsWhatItKept() {
        Spread<Integer> kept = listed().spread(List.of(1, 2, 3)).kept();
        assertEquals(3, kept.count());
        assertTrue(sc.getPersistentRDDs().containsKey(((RddSpread<Integer>) kept).rdd().id()));
        listed().close();
        assertEquals(Map.of(), sc.getPersistentRDDs());
    }
}

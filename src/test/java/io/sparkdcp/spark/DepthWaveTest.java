package io.sparkdcp.spark;

import io.sparkdcp.job.DepthWave;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Stat;
import io.sparkdcp.walk.Entry;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The tasks of a wave of directories on the executors: a level of its own is made in runs of the copy's
 * order (each share of the listing in path order, the shares in turn), so that XFS lays the directories'
 * inodes out in the order their files are created, as the driver's plan does.
 */
class DepthWaveTest {
    private static JavaSparkContext sc;

    @BeforeAll
    static void start() {
        sc = new JavaSparkContext(new SparkConf().setAppName("spark-dcp-test").setMaster("local[2]")
                .set("spark.ui.enabled", "false").set("spark.speculation", "false"));
    }

    @AfterAll
    static void stop() {
        if (sc != null) sc.stop();
    }

    private static Entry directory(String path) {
        return new Entry(PathBytes.of(path), Stat.of(FileType.DIRECTORY).permissions(0755).nlink(2).dev(1).ino(1).build(), null);
    }

    @Test
    void aLevelOfItsOwnIsMadeInRunsOfTheCopysOrderNotDealtRoundRobin() {
        // Two shares of a walk, each listed in its threads' order (not path order); depth 1 is the wave.
        List<String> first = List.of("a/d03", "a/d01", "a/d00", "a/d02", "a/d05", "a/d04", "a");
        List<String> second = List.of("b/d02", "b/d00", "b/d01", "b");
        List<Entry> all = new ArrayList<>();
        first.forEach(p -> all.add(directory(p)));
        second.forEach(p -> all.add(directory(p)));
        JavaRDD<Entry> shares = sc.parallelize(all.subList(0, first.size()), 1).union(sc.parallelize(all.subList(first.size(), all.size()), 1));

        List<DepthWave> waves = DepthWave.of(new long[]{0, 2, 9}, 4, 1);
        DepthWave level = waves.get(waves.size() - 1);
        assertEquals(new DepthWave(2, 2, 3, 4), level);

        List<List<String>> tasks = new ArrayList<>();
        for (List<Entry> task : tasks(level, shares)) tasks.add(task.stream().map(Entry::display).toList());
        assertEquals(List.of(List.of("a/d00", "a/d01", "a/d02", "a/d03"), List.of("a/d04", "a/d05", "b/d00", "b/d01"), List.of("b/d02")), tasks);
    }

    private static List<List<Entry>> tasks(DepthWave wave, JavaRDD<Entry> shares) {
        try (SparkPhaseRunner runner = new SparkPhaseRunner(sc)) {
            return ((RddSpread<Entry>) wave.tasksOf(new RddSpread.Job(runner).spread(shares), "make directories")).rdd().glom().collect();
        }
    }
}

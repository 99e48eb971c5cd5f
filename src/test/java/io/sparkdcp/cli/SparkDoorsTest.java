package io.sparkdcp.cli;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The rule of {@link SparkDoors} on the classes a local run loads; ShortClassPathTest applies it to what its runs loaded. */
@Tag("fast")
class SparkDoorsTest {
    private static JavaClasses production;

    @BeforeAll
    static void importClasses() {
        production = SparkDoors.production();
    }

    /** As compare before 407a77b, which loaded its executors' twin (then ExecutorCompare) before runner.onSpark(). */
    @Test
    void aSparkClassLoadedBesideCompareBreaksTheRule() {
        List<String> found = SparkDoors.violations(production,
                List.of("io.sparkdcp.cli.CompareCommand", "io.sparkdcp.api.PreparedCompare", "io.sparkdcp.job.CompareJob",
                        "io.sparkdcp.spark.SparkPhaseRunner"));
        assertEquals(1, found.size(), found.toString());
        assertTrue(found.get(0).startsWith("io.sparkdcp.spark.SparkPhaseRunner -> "), found.toString());
    }

    @Test
    void theEngineAndTheDoorsAloneKeepTheRule() {
        assertEquals(List.of(), SparkDoors.violations(production,
                List.of("io.sparkdcp.cli.CompareCommand", "io.sparkdcp.api.PreparedCompare", "io.sparkdcp.job.CompareJob",
                        "io.sparkdcp.job.CopyJob", "io.sparkdcp.job.exec.LocalPhaseRunner", "io.sparkdcp.copy.FileCopier")));
    }

    /**
     * Reaching Spark's side through other spark-dcp classes counts as reaching it: HadoopStore reaches Hadoop, and only
     * the door Store, which makes one for a place of another scheme alone, may hold it; a class that makes one itself
     * (the test's plant) breaks the rule, and so does a class that reaches Spark's side directly.
     */
    @Test
    void aClassThatReachesSparksSideThroughAnotherBreaksTheRule() {
        JavaClasses store = new ClassFileImporter().importPackages("io.sparkdcp.store");
        assertTrue(SparkDoors.reachingSparksSide(store).contains("io.sparkdcp.store.HadoopStore"));
        assertEquals(List.of(), SparkDoors.violations(store, List.of("io.sparkdcp.store.Store", "io.sparkdcp.store.LocalStore")));
        List<String> found = SparkDoors.violations(store, List.of("io.sparkdcp.store.HadoopStorePlant"));
        assertEquals(1, found.size(), found.toString());
        assertTrue(found.get(0).startsWith("io.sparkdcp.store.HadoopStorePlant -> io.sparkdcp.store.HadoopStore: "), found.toString());
        List<String> direct = SparkDoors.violations(production, List.of("io.sparkdcp.cli.Logging"));
        assertTrue(direct.size() == 1 && direct.get(0).startsWith("io.sparkdcp.cli.Logging -> org.apache.logging."), direct.toString());
    }

    /** The list of doors stays as short as the code allows: each one is there because it reaches Spark's side. */
    @Test
    void everyDoorIsNeeded() {
        for (String door : SparkDoors.DOORS.keySet()) assertTrue(production.contain(door), door + " is no class any more");
        assertEquals(List.of(), SparkDoors.needless(production), "doors that reach nothing of Spark's side: remove them from DOORS");
    }
}

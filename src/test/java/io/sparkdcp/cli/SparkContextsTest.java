package io.sparkdcp.cli;

import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

class SparkContextsTest {
    private static final long MIB = 1024 * 1024;

    @Test
    void maxResultSizeIsAQuarterOfTheDriversHeapWithinSparksDefault() {
        assertEquals("512m", SparkContexts.maxResultSize(2048 * MIB)); // the launcher's default driver
        assertEquals("20m", SparkContexts.maxResultSize(80 * MIB));    // the small driver
        assertEquals("1024m", SparkContexts.maxResultSize(64 * 1024 * MIB));
        assertEquals("1m", SparkContexts.maxResultSize(2 * MIB));
    }

    /** spark-submit's --name and --conf spark.app.name both arrive as spark.app.name. */
    @Test
    void theSubmittedAppNameIsKept() {
        assertEquals("migration-42", appNameOf(new SparkConf(false).set("spark.app.name", "migration-42")));
    }

    @Test
    void withoutANameTheAppIsSparkDcp() {
        assertEquals("spark-dcp", appNameOf(new SparkConf(false)));
        // spark-submit without --name: it names the application after --class.
        assertEquals("spark-dcp", appNameOf(new SparkConf(false).set("spark.app.name", Main.class.getName())));
    }

    @Test
    void aLocalMasterHasNoWebUiUnlessTheUserAsksForOne() {
        assertEquals("false", SparkContexts.configure(new SparkConf(false), "local[2]").get("spark.ui.enabled"));
        assertEquals("false", SparkContexts.configure(new SparkConf(false), null).get("spark.ui.enabled")); // local[*]
        assertEquals("false", SparkContexts.configure(new SparkConf(false).setMaster("local"), null).get("spark.ui.enabled"));
        assertEquals("true", SparkContexts.configure(new SparkConf(false).set("spark.ui.enabled", "true"), "local[2]")
                .get("spark.ui.enabled"));
    }

    @Test
    void aClusterMasterKeepsSparksWebUi() {
        assertFalse(SparkContexts.configure(new SparkConf(false), "spark://host:7077").contains("spark.ui.enabled"));
        assertFalse(SparkContexts.configure(new SparkConf(false).setMaster("yarn"), null).contains("spark.ui.enabled"));
    }

    private static String appNameOf(SparkConf submitted) {
        return SparkContexts.configure(submitted, "local[1]").get("spark.app.name");
    }
}

package io.sparkdcp.copy;

/** A planted violation for LayeringTest: the engine importing Spark (and reaching up into spark/). */
public final class LayeringPlant {
    private LayeringPlant() {}

    static Object runner(org.apache.spark.api.java.JavaSparkContext sc) {
        return new io.sparkdcp.spark.SparkPhaseRunner(sc);
    }
}

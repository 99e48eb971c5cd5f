package io.sparkdcp.store;

import java.io.IOException;

/** For SparkDoorsTest: a class that makes Hadoop's store itself, not through the door Store.of. */
final class HadoopStorePlant {
    private HadoopStorePlant() {}

    static Store hdfs() throws IOException {
        return new HadoopStore("hdfs://namenode/state");
    }
}

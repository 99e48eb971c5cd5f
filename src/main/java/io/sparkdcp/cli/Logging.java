package io.sparkdcp.cli;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.config.Configurator;

/** {@code --verbose}: Spark's and spark-dcp's INFO messages, over log4j2.properties' quiet default. */
final class Logging {
    private Logging() {}

    static void verbose() {
        Configurator.setRootLevel(Level.INFO);
        Configurator.setLevel("org.apache.spark", Level.INFO);
        Configurator.setLevel("io.sparkdcp", Level.INFO);
    }
}

package io.sparkdcp.cli;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class SparkContextsTest {
    private static final long MIB = 1024 * 1024;

    @Test
    void maxResultSizeIsAQuarterOfTheDriversHeapWithinSparksDefault() {
        assertEquals("512m", SparkContexts.maxResultSize(2048 * MIB)); // the launcher's default driver
        assertEquals("20m", SparkContexts.maxResultSize(80 * MIB));    // the small driver
        assertEquals("1024m", SparkContexts.maxResultSize(64 * 1024 * MIB));
        assertEquals("1m", SparkContexts.maxResultSize(2 * MIB));
    }
}

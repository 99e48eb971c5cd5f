package io.sparkdcp.cli;

import io.sparkdcp.testing.AppJars;
import io.sparkdcp.testing.ChildJvm;
import io.sparkdcp.testing.StandaloneCluster;
import io.sparkdcp.testing.TimedProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A driver that runs out of memory on a standalone cluster (a master and a worker, each its own
 * JVM from the build's classpath) ends at once with exit 3 and one line saying which memory ran
 * out and what to do, with no stack trace. Without the guard the heap case dies with traces or
 * hangs (the task-result threads die and the job waits for ever: the time limit fails the test),
 * and the direct-memory case retries "TaskResultLost" and stops with exit 1.
 * <p>
 * A copy, a dry run or a compare with --walk distributed keeps the listing on the executors (issue 16),
 * so the direct-memory case is a copy with --files-from: it keeps the driver's plan (which checks the
 * whole listing for listed paths SRC lacks), so each round of its distributed walk sends its directory
 * blocks to the driver.
 */
class DriverOutOfMemoryTest {
    private static final Path PROJECT = AppJars.PROJECT;
    /** Far above the ~40 s either run takes on an idle 2-core machine; a hang ends only here. */
    private static final long RUN_SECONDS = 300;
    /** Entries of the tree; their long names make the listing big without making the tree slow to build. */
    private static final int DIRECTORIES = 100;
    private static final int FILES_PER_DIRECTORY = 400;
    /** Enough for the driver to run a copy of an empty tree (checked by hand), not for this tree's listing. */
    private static final String SMALL_HEAP = "-Xmx40m";
    private static final String PADDING = "x".repeat(240);

    @TempDir
    static Path tmp;

    private static AppJars jars;
    private static StandaloneCluster cluster;
    private static Path source;

    @BeforeAll
    static void startClusterAndBuildTree() throws Exception {
        jars = AppJars.fromLauncherBuild();
        cluster = StandaloneCluster.start(Files.createDirectory(tmp.resolve("cluster")), jars.classpath(), 1, "1g");
        source = Files.createDirectory(tmp.resolve("src")); // while the cluster's JVMs start
        for (int d = 0; d < DIRECTORIES; d++) {
            Path dir = Files.createDirectory(source.resolve("d" + d));
            for (int f = 0; f < FILES_PER_DIRECTORY; f++) Files.createFile(dir.resolve(f + PADDING));
        }
        cluster.awaitWorkers();
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) cluster.close();
    }

    @Test
    void aDriverHeapTooSmallForTheListingEndsTheRunWithExit3AndOneLine() throws Exception {
        // The driver's walk and plan hold the listing; without the guard of spark.driver.maxResultSize, as a user who lifted it would run.
        TimedProcess.Finished run = copy("heap", "driver", List.of(SMALL_HEAP), "--conf", "spark.driver.maxResultSize=0");

        assertEquals(Main.EXIT_OUT_OF_MEMORY, run.exitCode(), run.output());
        assertTrue(run.output().contains("spark-dcp: the driver ran out of heap memory"), run.output());
        assertTrue(run.output().contains("SPARK_DCP_DRIVER_MEMORY"), run.output());
        assertNoStackTrace(run.output());
    }

    @Test
    void aTaskResultTooBigForTheDriversDirectMemoryEndsTheRunWithExit3AndOneLine() throws Exception {
        // Results above maxDirectResultSize are fetched from the executor's block manager through
        // Netty's direct buffers; 16 KiB sends every walk round's result that way, whatever its size.
        Path destination = Files.createDirectory(tmp.resolve("dst-direct"));
        StringBuilder everyDirectory = new StringBuilder();
        for (int d = 0; d < DIRECTORIES; d++) everyDirectory.append('d').append(d).append('\n');
        Path listed = Files.writeString(tmp.resolve("every-directory"), everyDirectory);
        TimedProcess.Finished run = submit("direct", List.of("-Xmx256m", "-XX:MaxDirectMemorySize=2m"),
                List.of("copy", "--walk", "distributed", "--files-from", listed.toString(), "--progress", "0", source + "/",
                        destination.toString()),
                "--conf", "spark.task.maxDirectResultSize=16k");

        assertEquals(Main.EXIT_OUT_OF_MEMORY, run.exitCode(), run.output());
        assertTrue(run.output().contains("spark-dcp: the driver ran out of direct memory"), run.output());
        assertNoStackTrace(run.output());
    }

    @Test
    void resultsBiggerThanMaxResultSizeEndTheRunWithSparksReasonInOneLine() throws Exception {
        TimedProcess.Finished run = copy("results", "distributed", List.of("-Xmx256m"), "--conf", "spark.driver.maxResultSize=1m");

        assertEquals(Main.EXIT_OUT_OF_MEMORY, run.exitCode(), run.output());
        assertTrue(run.output().contains("spark-dcp: the tasks' results outgrew spark.driver.maxResultSize"), run.output());
        assertTrue(run.output().contains("(Spark: Total size of serialized results of"), run.output());
        assertNoStackTrace(run.output());
    }

    private static void assertNoStackTrace(String output) {
        assertFalse(output.contains("\tat "), output);
        assertFalse(output.contains("Exception in thread"), output);
        assertFalse(output.contains("UncaughtExceptionHandler"), output);
    }

    /**
     * spark-submit in client mode, as the launcher and the cluster scripts run it, with the project's
     * spark-defaults.conf. With the listing on the executors (--walk distributed), what comes back
     * big is the failures: DST holds a directory at every file's name, and each file is refused.
     */
    private static TimedProcess.Finished copy(String name, String walk, List<String> driverFlags, String... sparkConf) throws Exception {
        Path destination = tmp.resolve("dst-" + name);
        if (walk.equals("distributed")) {
            for (int d = 0; d < DIRECTORIES; d++)
                for (int f = 0; f < FILES_PER_DIRECTORY; f++) Files.createDirectories(destination.resolve("d" + d).resolve(f + PADDING));
        }
        return submit(name, driverFlags, List.of("copy", "--walk", walk, "--progress", "0", source + "/", destination.toString()),
                sparkConf);
    }

    private static TimedProcess.Finished submit(String name, List<String> driverFlags, List<String> arguments,
                                                String... sparkConf) throws Exception {
        List<String> command = new ArrayList<>(List.of(StandaloneCluster.javaBin()));
        command.addAll(ChildJvm.FLAGS);
        command.addAll(driverFlags);
        command.addAll(AppJars.moduleFlags());
        command.addAll(List.of("-Dlog4j.configurationFile=" + PROJECT.resolve("spark-conf/log4j2.properties"),
                "-cp", jars.classpath(), "org.apache.spark.deploy.SparkSubmit",
                "--master", cluster.masterUrl(), "--deploy-mode", "client", "--class", "io.sparkdcp.cli.Main",
                "--properties-file", PROJECT.resolve("spark-conf/spark-defaults.conf").toString(),
                "--executor-memory", "512m", "--executor-cores", "1",
                "--conf", "spark.executor.extraClassPath=" + jars.classpath(),
                "--conf", "spark.executor.defaultJavaOptions=" + ChildJvm.flags(),
                // Spark refuses a driver heap under 450 MiB unless its reserve is lifted.
                "--conf", "spark.testing.reservedMemory=0"));
        command.addAll(List.of(sparkConf));
        command.add(jars.appJar().toString());
        command.addAll(arguments);
        return TimedProcess.run(new ProcessBuilder(command), tmp.resolve(name + ".log"), RUN_SECONDS);
    }
}

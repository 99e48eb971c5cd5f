package io.sparkdcp.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkdcp.testing.AppJars;
import io.sparkdcp.testing.ChildJvm;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.RichTree;
import io.sparkdcp.testing.StandaloneCluster;
import io.sparkdcp.testing.TimedProcess;
import io.sparkdcp.testing.TreeComparator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The thin application jar submitted with spark-submit's main class to a standalone cluster of a
 * master and two workers, each its own JVM started from the build's classpath, as
 * submit-scripts/cluster/standalone does on a real cluster.
 */
class StandaloneClusterSubmitTest {
    private static final Path PROJECT = AppJars.PROJECT;
    private static final long SUBMIT_SECONDS = 120;

    @TempDir
    Path tmp;

    @Test
    void theAppJarCopiesATreeExactlyOnTwoWorkers() throws Exception {
        LoopMount.requireRootAndXfs();
        AppJars jars = AppJars.fromLauncherBuild();
        try (LoopMount mount = LoopMount.create("cluster", 1024);
             StandaloneCluster cluster = StandaloneCluster.start(tmp, jars.classpath(), 2, "1g")) {
            RichTree tree = RichTree.build(Files.createDirectory(mount.dir().resolve("src"))); // while the JVMs start
            cluster.awaitWorkers();
            Path dst = mount.dir().resolve("dst");
            Path report = tmp.resolve("report.json");

            TimedProcess.Finished submit = TimedProcess.run(new ProcessBuilder(submitCommand(jars, cluster.masterUrl(), "copy",
                    "--batch-files", "20", "--chunk-size", "1M", "--xattrs", "all", "--report", report.toString(),
                    tree.root() + "/", dst.toString())), tmp.resolve("submit.log"), SUBMIT_SECONDS);
            assertEquals(0, submit.exitCode(), submit.output());

            TreeComparator.assertSameTree(tree.root(), dst);
            JsonNode json = new ObjectMapper().readTree(report.toFile());
            assertEquals(0, json.get("exit_code").asInt(), json.toString());
            assertEquals(tree.entryCount() + 1, json.get("copied").asLong(), json.toString());
            for (Path workerLog : cluster.workerLogs()) {
                assertTrue(Files.readString(workerLog).contains("Asked to launch executor"), "no executor on " + workerLog);
            }
        }
    }

    /** SparkSubmit in client mode, as spark-submit runs it, with the project's spark-defaults.conf. */
    private static List<String> submitCommand(AppJars jars, String master, String... args) {
        List<String> command = new ArrayList<>(List.of(StandaloneCluster.javaBin(), "-Xmx1g"));
        command.addAll(ChildJvm.FLAGS);
        command.addAll(AppJars.moduleFlags());
        command.addAll(List.of("-Dlog4j.configurationFile=" + PROJECT.resolve("spark-conf/log4j2.properties"),
                "-cp", jars.classpath(), "org.apache.spark.deploy.SparkSubmit",
                "--master", master, "--deploy-mode", "client", "--class", "io.sparkdcp.cli.Main",
                "--properties-file", PROJECT.resolve("spark-conf/spark-defaults.conf").toString(),
                "--executor-memory", "512m", "--executor-cores", "1",
                // Executors find Spark on a real cluster's SPARK_HOME/jars; here it is the build's classpath.
                "--conf", "spark.executor.extraClassPath=" + jars.classpath(),
                "--conf", "spark.executor.defaultJavaOptions=" + ChildJvm.flags(),
                jars.appJar().toString()));
        command.addAll(List.of(args));
        return command;
    }
}

package io.sparkdcp.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.RichTree;
import io.sparkdcp.testing.StandaloneCluster;
import io.sparkdcp.testing.TreeComparator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The thin application jar submitted with spark-submit's main class to a standalone cluster of a
 * master and two workers, each its own JVM started from the build's classpath, as
 * submit-scripts/cluster/standalone does on a real cluster.
 */
class StandaloneClusterSubmitTest {
    private static final Path PROJECT = Path.of("").toAbsolutePath();
    private static final long SUBMIT_SECONDS = 120;

    @TempDir
    Path tmp;

    @Test
    void theAppJarCopiesATreeExactlyOnTwoWorkers() throws Exception {
        LoopMount.requireRootAndXfs();
        BuiltJars jars = BuiltJars.fromLauncherBuild();
        try (LoopMount mount = LoopMount.create("cluster", 1024);
             StandaloneCluster cluster = StandaloneCluster.start(tmp, jars.classpath(), 2, "1g")) {
            RichTree tree = RichTree.build(Files.createDirectory(mount.dir().resolve("src"))); // while the JVMs start
            cluster.awaitWorkers();
            Path dst = mount.dir().resolve("dst");
            Path report = tmp.resolve("report.json");

            Path log = tmp.resolve("submit.log");
            Process submit = new ProcessBuilder(submitCommand(jars, cluster.masterUrl(), "copy", "--batch-files", "20",
                    "--chunk-size", "1M", "--xattrs", "all", "--report", report.toString(), tree.root().toString(), dst.toString()))
                    .redirectErrorStream(true).redirectOutput(log.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
            boolean finished = submit.waitFor(SUBMIT_SECONDS, TimeUnit.SECONDS);
            if (!finished) {
                submit.descendants().forEach(ProcessHandle::destroyForcibly);
                submit.destroyForcibly().waitFor();
            }
            String output = Files.readString(log);
            assertTrue(finished, "spark-submit ran more than " + SUBMIT_SECONDS + " s:\n" + output);
            assertEquals(0, submit.exitValue(), output);

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
    private static List<String> submitCommand(BuiltJars jars, String master, String... args) {
        List<String> command = new ArrayList<>(List.of(StandaloneCluster.javaBin(), "-Xmx1g"));
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (arg.startsWith("--add-opens=") || arg.startsWith("-Djdk.reflect.") || arg.startsWith("-Dio.netty.")) command.add(arg);
        }
        command.addAll(List.of("-Dlog4j.configurationFile=" + PROJECT.resolve("spark-conf/log4j2.properties"),
                "-cp", jars.classpath(), "org.apache.spark.deploy.SparkSubmit",
                "--master", master, "--deploy-mode", "client", "--class", "io.sparkdcp.cli.Main",
                "--properties-file", PROJECT.resolve("spark-conf/spark-defaults.conf").toString(),
                "--executor-memory", "512m", "--executor-cores", "1",
                // Executors find Spark on a real cluster's SPARK_HOME/jars; here it is the build's classpath.
                "--conf", "spark.executor.extraClassPath=" + jars.classpath(),
                jars.appJar().toString()));
        command.addAll(List.of(args));
        return command;
    }

    /**
     * target/spark-dcp-app.jar and the classpath of Spark, built by the launcher: Surefire runs
     * before {@code package}, and the launcher's build (maven.test.skip) leaves test classes alone.
     */
    private record BuiltJars(Path appJar, String classpath) {
        static BuiltJars fromLauncherBuild() throws Exception {
            Process build = new ProcessBuilder(PROJECT.resolve("submit-scripts/spark-dcp").toString(), "--version")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
            boolean finished = build.waitFor(5, TimeUnit.MINUTES);
            if (!finished) build.destroyForcibly().waitFor();
            assertTrue(finished && build.exitValue() == 0, "the launcher's build failed; see target/launcher-build.log");
            return new BuiltJars(PROJECT.resolve("target/spark-dcp-app.jar"),
                    Files.readString(PROJECT.resolve("target/classpath.txt")).strip());
        }
    }
}

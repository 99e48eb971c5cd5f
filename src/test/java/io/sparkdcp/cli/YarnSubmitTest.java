package io.sparkdcp.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkdcp.testing.AppJars;
import io.sparkdcp.testing.ChildJvm;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.RichTree;
import io.sparkdcp.testing.TimedProcess;
import io.sparkdcp.testing.TreeComparator;
import io.sparkdcp.testing.TreeFiles;
import io.sparkdcp.testing.YarnCluster;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * submit-scripts/cluster/yarn as a site runs it, against a real YARN (Hadoop's MiniYARNCluster on
 * loopback), with no SPARK_HOME: spark-submit runs from the build's jars. Each application must
 * end as the copy did, in one attempt: SUCCEEDED with the tree exact, or FAILED with a non-zero
 * spark-submit. An executor killed mid-copy changes none of that. The script authenticates:
 * the executors run with spark.authenticate and RPC encryption, the secret on no command line.
 */
class YarnSubmitTest {
    private static final Path PROJECT = AppJars.PROJECT;
    private static final long SUBMIT_SECONDS = 300;
    /** A directory of many plain files in the tree, so that the copy lasts long enough to lose an executor in. */
    private static final String MANY = "many";
    private static final int MANY_DIRECTORIES = 10;
    private static final int MANY_FILES = MANY_DIRECTORIES * 100;

    @TempDir
    static Path tmp;
    private static LoopMount mount;
    private static YarnCluster yarn;
    private static RichTree tree;

    @BeforeAll
    static void startYarn() throws Exception {
        LoopMount.requireRootAndXfs();
        AppJars.fromLauncherBuild(); // target/spark-dcp-app.jar and target/classpath.txt
        mount = LoopMount.create("yarn", 1024);
        tree = RichTree.build(Files.createDirectory(mount.dir().resolve("src")));
        TreeFiles.buildMany(tree.root().resolve(MANY), MANY_DIRECTORIES, MANY_FILES / MANY_DIRECTORIES, 32 << 10);
        yarn = YarnCluster.start(tmp.resolve("yarn"));
    }

    @AfterAll
    static void stopYarn() {
        if (yarn != null) yarn.close();
        if (mount != null) mount.close();
    }

    /** Client mode, and an executor's JVM killed with SIGKILL mid-copy: its tasks run again on the other one. */
    @Test
    void clientModeCopiesExactlyInOneSucceededAttemptThoughAnExecutorIsKilled() throws Exception {
        Path dst = mount.dir().resolve("dst-client");
        Path report = tmp.resolve("report-client.json");
        Set<ApplicationId> before = yarn.applications();
        Path log = tmp.resolve("submit-client.log");
        Process submit = script("client", copyArguments(report, dst)).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(SUBMIT_SECONDS);
            while (TreeFiles.regularFiles(dst.resolve(MANY)).size() < MANY_FILES / 10 && submit.isAlive() && System.nanoTime() < deadline) Thread.sleep(20);
            assertTrue(submit.isAlive() && TreeFiles.regularFiles(dst.resolve(MANY)).size() < MANY_FILES,
                    "the copy must still be running when the executor dies:\n" + Files.readString(log));
            assertExecutorsAuthenticateWithASecretOnNoCommandLine();
            yarn.killOneExecutor();
            assertTrue(submit.waitFor(SUBMIT_SECONDS, TimeUnit.SECONDS), "no end after losing an executor:\n" + Files.readString(log));
        } finally {
            submit.descendants().forEach(ProcessHandle::destroyForcibly);
            submit.destroyForcibly();
        }
        Submitted run = submitted(before, new TimedProcess.Finished(submit.exitValue(), Files.readString(log)));
        // Files the lost attempts had finished are skipped by their retries: copied + skipped is the whole tree.
        assertExactInOneSucceededAttempt(run, dst, report);
        assertTrue(run.output().contains("failed and were retried by Spark") || run.output().contains("failed and was retried by Spark"),
                "the lost attempts are reported: " + run.output());
    }

    @Test
    void clusterModeCopiesExactlyInOneSucceededAttempt() throws Exception {
        Path dst = mount.dir().resolve("dst-cluster");
        Path report = tmp.resolve("report-cluster.json");
        assertExactInOneSucceededAttempt(submit("cluster", copyArguments(report, dst)), dst, report);
    }

    /** The driver in the ApplicationMaster's container: a failed run fails the application, once. */
    @Test
    void clusterModeFailureFailsTheApplicationOnceAndSparkSubmit() throws Exception {
        Path missing = mount.dir().resolve("no-such-src");
        Path dst = mount.dir().resolve("dst-failed");
        Submitted run = submit("cluster", "copy", missing.toString(), dst.toString());

        assertNotEquals(0, run.exitCode(), run.output());
        ApplicationReport app = yarn.report(run.application());
        assertEquals(FinalApplicationStatus.FAILED, app.getFinalApplicationStatus(), run.describe(app));
        assertEquals(1, yarn.attempts(run.application()), run.describe(app));
        // The copy's own exit code (2: usage) reached YARN, not an AM shutdown-hook failure.
        assertTrue(app.getDiagnostics().contains("exited with status 2"), run.describe(app));
        assertFalse(Files.exists(dst), "the failed run wrote " + dst);
    }

    /**
     * While the copy runs: the executors were started with spark.authenticate and RPC encryption
     * (they could register with the driver, which then demands both, only by authenticating), and
     * the application's secret, read from a container's YARN credentials, is in no process's arguments.
     */
    private static void assertExecutorsAuthenticateWithASecretOnNoCommandLine() throws Exception {
        String ps = TimedProcess.run(new ProcessBuilder("ps", "-eo", "args"), tmp.resolve("ps.log"), 30).output();
        List<String> executors = ps.lines().filter(line -> line.contains("YarnCoarseGrainedExecutorBackend") && line.contains("/java ")).toList();
        assertFalse(executors.isEmpty(), "no executor JVM in ps:\n" + ps);
        for (String executor : executors) {
            assertTrue(executor.contains("-Dspark.authenticate=true"), "an executor without authentication: " + executor);
            assertTrue(executor.contains("-Dspark.network.crypto.enabled=true"), "an executor without RPC encryption: " + executor);
        }
        List<String> secrets = new ArrayList<>();
        try (var files = Files.walk(tmp.resolve("yarn"))) {
            for (Path tokens : files.filter(f -> f.getFileName().toString().equals("container_tokens")).toList()) {
                byte[] secret = Credentials.readTokenStorageFile(tokens.toFile(), new Configuration()).getSecretKey(new Text("sparkCookie"));
                if (secret != null) secrets.add(new String(secret, StandardCharsets.UTF_8));
            }
        }
        assertFalse(secrets.isEmpty(), "no container's credentials hold Spark's secret");
        for (String secret : secrets) {
            assertTrue(secret.length() >= 16, "a short secret: " + secret.length() + " characters");
            assertFalse(ps.contains(secret), "the application's secret is on a command line:\n" + ps);
        }
        assertFalse(ps.contains("spark.authenticate.secret") || ps.contains("_SPARK_AUTH_SECRET"), "a secret setting on a command line:\n" + ps);
    }

    /** Small batches: hard links and the many files spread over many tasks, on both executors. */
    private static String[] copyArguments(Path report, Path dst) {
        return new String[]{"copy", "--fsync", "--batch-files", "50", "--chunk-size", "1M", "--xattrs", "all",
                "--report", report.toString(), tree.root() + "/", dst.toString()};
    }

    private static void assertExactInOneSucceededAttempt(Submitted run, Path dst, Path report) throws Exception {
        ApplicationReport app = yarn.report(run.application());
        assertEquals(0, run.exitCode(), run.describe(app));
        assertEquals(YarnApplicationState.FINISHED, app.getYarnApplicationState(), run.describe(app));
        assertEquals(FinalApplicationStatus.SUCCEEDED, app.getFinalApplicationStatus(), run.describe(app));
        assertEquals(1, yarn.attempts(run.application()), run.describe(app));
        TreeComparator.assertSameTree(tree.root(), dst);
        JsonNode json = new ObjectMapper().readTree(report.toFile());
        assertEquals(0, json.get("exit_code").asInt(), json.toString());
        long entries = tree.entryCount() + 1 + 1 + MANY_DIRECTORIES + MANY_FILES; // the root and "many" are entries too
        assertEquals(entries, json.get("copied").asLong() + json.get("skipped").asLong(), json.toString());
    }

    /** One run of the script and the one application it submitted. */
    private record Submitted(int exitCode, String output, ApplicationId application, String containerLogs) {
        String describe(ApplicationReport app) {
            return app.getYarnApplicationState() + "/" + app.getFinalApplicationStatus() + " " + app.getDiagnostics()
                    + "\nspark-submit exited " + exitCode + ":\n" + output + "\n" + containerLogs;
        }
    }

    private static Submitted submit(String deployMode, String... args) throws Exception {
        Set<ApplicationId> before = yarn.applications();
        Path log = tmp.resolve("submit-" + deployMode + ".log");
        TimedProcess.Finished finished = TimedProcess.run(script(deployMode, args), log, SUBMIT_SECONDS);
        return submitted(before, finished);
    }

    private static Submitted submitted(Set<ApplicationId> before, TimedProcess.Finished finished) throws Exception {
        Set<ApplicationId> submitted = new HashSet<>(yarn.applications());
        submitted.removeAll(before);
        assertEquals(1, submitted.size(), "applications submitted: " + submitted + "\n" + finished.output() + "\n" + yarn.containerLogs());
        return new Submitted(finished.exitCode(), finished.output(), submitted.iterator().next(), yarn.containerLogs());
    }

    /** submit-scripts/cluster/yarn as a site runs it, with small containers for this machine. */
    private static ProcessBuilder script(String deployMode, String... args) {
        ProcessBuilder builder = new ProcessBuilder(new ArrayList<>(List.of(PROJECT.resolve("submit-scripts/cluster/yarn").toString())));
        builder.command().addAll(List.of(args));
        Map<String, String> env = builder.environment();
        env.remove("SPARK_HOME"); // spark-submit from the build's jars, as on a machine without Spark
        env.put("HADOOP_CONF_DIR", yarn.confDir().toString());
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.put("SPARK_DCP_DEPLOY_MODE", deployMode);
        env.put("SPARK_DCP_DRIVER_MEMORY", "640m");
        env.put("SPARK_DCP_EXECUTOR_MEMORY", "640m");
        env.put("SPARK_DCP_EXECUTOR_CORES", "1");
        env.put("SPARK_DCP_EXECUTORS", "2");
        // The NodeManager is on this machine: containers use the jars in place instead of an upload.
        // The flags of short-lived JVMs for each: the driver (here or in the AM's container), the AM, the executors.
        env.put("SPARK_DCP_SUBMIT_OPTIONS", "--conf spark.yarn.jars=local:" + PROJECT.resolve("target/spark-home/jars") + "/*"
                + " --conf spark.driver.defaultJavaOptions=" + ChildJvm.flags() + " --conf spark.yarn.am.extraJavaOptions=" + ChildJvm.flags()
                + " --conf spark.executor.defaultJavaOptions=" + ChildJvm.flags()
                // The AM hears of a lost executor, and spark-submit of the application's end, within half a second.
                + " --conf spark.yarn.scheduler.heartbeat.interval-ms=500 --conf spark.yarn.report.interval=500ms");
        return builder;
    }
}

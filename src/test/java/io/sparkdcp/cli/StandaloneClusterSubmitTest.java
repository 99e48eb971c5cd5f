package io.sparkdcp.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkdcp.testing.AppJars;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.RichTree;
import io.sparkdcp.testing.SparkStandIn;
import io.sparkdcp.testing.StandaloneCluster;
import io.sparkdcp.testing.TimedProcess;
import io.sparkdcp.testing.TreeComparator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * submit-scripts/cluster/standalone, unmodified, against a standalone cluster that authenticates: a
 * master and two one-core workers, each its own JVM from the build's classpath, started with a
 * secret in a properties file as docs/cluster.md shows; Spark for the script is the build's
 * classpath behind a SPARK_HOME of two scripts ({@link SparkStandIn}). One cluster for the class.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StandaloneClusterSubmitTest {
    private static final Path SCRIPT = AppJars.PROJECT.resolve("submit-scripts/cluster/standalone");
    private static final long SUBMIT_SECONDS = 240;
    private static final String SECRET = HexFormat.of().formatHex(new SecureRandom().generateSeed(32));

    @TempDir
    static Path tmp;

    private LoopMount mount;
    private StandaloneCluster cluster;
    private RichTree tree;
    private Path sparkHome;
    private Path secretFile;
    private Path submitTmp;

    @BeforeAll
    void startTheCluster() throws Exception {
        LoopMount.requireRootAndXfs();
        AppJars jars = AppJars.fromLauncherBuild();
        mount = LoopMount.create("cluster", 1024);
        cluster = StandaloneCluster.start(Files.createDirectory(tmp.resolve("cluster")), jars.classpath(), 2, "1g", SECRET);
        tree = RichTree.build(Files.createDirectory(mount.dir().resolve("src"))); // while the JVMs start
        sparkHome = SparkStandIn.install(tmp.resolve("spark"), jars);
        secretFile = Files.createFile(tmp.resolve("secret"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(secretFile, SECRET + "\n");
        submitTmp = Files.createDirectory(tmp.resolve("submit-tmp"));
        cluster.awaitWorkers();
    }

    @AfterAll
    void stopTheCluster() {
        try (LoopMount m = mount; StandaloneCluster c = cluster) {
            // closed in reverse order
        }
    }

    /** RPC encryption is on by default: the executors are started with it, and without the secret on their command line. */
    @Test
    void withTheSecretTheCopyIsExactEncrypted() throws Exception {
        Path dst = mount.dir().resolve("dst-encrypted");
        Path report = tmp.resolve("report.json");
        TimedProcess.Finished submit = submit(Map.of("SPARK_DCP_SECRET_FILE", secretFile.toString()), cluster.masterUrl(), "copy",
                "--batch-files", "20", "--chunk-size", "1M", "--xattrs", "all", "--report", report.toString(), tree.root() + "/", dst.toString());
        assertEquals(0, submit.exitCode(), submit.output());
        TreeComparator.assertSameTree(tree.root(), dst);
        JsonNode json = new ObjectMapper().readTree(report.toFile());
        assertEquals(tree.entryCount() + 1, json.get("copied").asLong(), json.toString());
        for (Path workerLog : cluster.workerLogs()) {
            String launch = lastLaunch(workerLog);
            assertTrue(launch.contains("\"-Dspark.authenticate=true\"") && launch.contains("\"-Dspark.network.crypto.enabled=true\""), launch);
            assertFalse(launch.contains(SECRET), launch);
        }
        assertNoPrivateFilesLeft();
    }

    @Test
    void withTheSecretFileOptionAndEncryptionOffTheCopyIsExact() throws Exception {
        Path dst = mount.dir().resolve("dst-plain");
        TimedProcess.Finished submit = submit(Map.of("SPARK_DCP_ENCRYPTION", "off"), "--secret-file", secretFile.toString(),
                cluster.masterUrl(), "copy", "--batch-files", "20", "--xattrs", "all", tree.root() + "/", dst.toString());
        assertEquals(0, submit.exitCode(), submit.output());
        TreeComparator.assertSameTree(tree.root(), dst);
        for (Path workerLog : cluster.workerLogs()) {
            String launch = lastLaunch(workerLog);
            assertTrue(launch.contains("\"-Dspark.authenticate=true\"") && !launch.contains("spark.network.crypto.enabled=true"), launch);
        }
        assertNoPrivateFilesLeft();
    }

    @Test
    void withoutTheSecretTheScriptRefusesInOneLine() throws Exception {
        Path dst = mount.dir().resolve("dst-no-secret");
        TimedProcess.Finished submit = submit(Map.of(), cluster.masterUrl(), "copy", tree.root() + "/", dst.toString());
        assertEquals(2, submit.exitCode(), submit.output());
        assertEquals(List.of("spark-dcp: no secret to authenticate with " + cluster.masterUrl() + ": set SPARK_DCP_SECRET_FILE or pass "
                + "--secret-file FILE (see docs/cluster.md#security), or --insecure to submit without authentication"), submit.output().lines().toList());
        assertTrue(Files.notExists(dst));

        Path shared = Files.writeString(tmp.resolve("shared-secret"), SECRET + "\n"); // mode 0644
        submit = submit(Map.of("SPARK_DCP_SECRET_FILE", shared.toString()), cluster.masterUrl(), "copy", tree.root() + "/", dst.toString());
        assertEquals(2, submit.exitCode(), submit.output());
        assertEquals(List.of("spark-dcp: " + shared + ": others may read this secret file (mode 644): chmod 600 it"), submit.output().lines().toList());
        assertTrue(Files.notExists(dst));
    }

    /** A master someone else started without authentication, on another port: the driver refuses it before it starts Spark. */
    @Test
    void aMasterWithoutAuthenticationIsRefused() throws Exception {
        Path dst = mount.dir().resolve("dst-open-master");
        try (StandaloneCluster open = StandaloneCluster.start(Files.createDirectory(tmp.resolve("open")), AppJars.fromLauncherBuild().classpath(), 0, "1g")) {
            open.awaitMaster();
            TimedProcess.Finished submit = submit(Map.of("SPARK_DCP_SECRET_FILE", secretFile.toString()), open.masterUrl(), "copy",
                    tree.root() + "/", dst.toString());
            assertEquals(2, submit.exitCode(), submit.output());
            List<String> lines = submit.output().lines().filter(line -> line.startsWith("spark-dcp: ")).toList();
            assertEquals(List.of("spark-dcp: " + open.masterUrl() + " takes applications without authentication, from "
                    + "anyone who reaches it: start its master and workers with spark.authenticate and the secret (docs/cluster.md#security)"),
                    lines, submit.output());
            assertFalse(Files.readString(open.masterLog()).contains("Registering app"), Files.readString(open.masterLog()));
        }
        assertTrue(Files.notExists(dst));
        assertNoPrivateFilesLeft();
    }

    /** The script with the executors' sizes of a one-core worker, its temporary files in submitTmp. */
    private TimedProcess.Finished submit(Map<String, String> variables, String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(SCRIPT.toString()));
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(Map.of("SPARK_HOME", sparkHome.toString(), "SPARK_DCP_DRIVER_MEMORY", "1g", "SPARK_DCP_EXECUTOR_CORES", "1",
                "SPARK_DCP_EXECUTOR_MEMORY", "512m", "TMPDIR", submitTmp.toString()));
        builder.environment().remove("SPARK_DCP_SECRET_FILE");
        builder.environment().putAll(variables);
        return TimedProcess.run(builder, Files.createTempFile(tmp, "submit", ".log"), SUBMIT_SECONDS);
    }

    /** The properties file with the secret is removed when spark-submit ends. */
    private void assertNoPrivateFilesLeft() throws IOException {
        try (Stream<Path> left = Files.list(submitTmp)) {
            assertEquals(List.of(), left.toList());
        }
    }

    /** The command line of the last executor the worker started. */
    private static String lastLaunch(Path workerLog) throws IOException {
        List<String> launches = Files.readString(workerLog).lines().filter(line -> line.contains("Launch command: ")).toList();
        assertFalse(launches.isEmpty(), "no executor on " + workerLog);
        return launches.get(launches.size() - 1);
    }
}

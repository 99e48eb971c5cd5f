package io.sparkdcp.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkdcp.bench.latencyfs.LatencyMount;
import io.sparkdcp.bench.latencyfs.LatencyProfile;
import io.sparkdcp.bench.latencyfs.MetadataOp;
import io.sparkdcp.testing.AppJars;
import io.sparkdcp.testing.ChildJvm;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.RichTree;
import io.sparkdcp.testing.SlurmCluster;
import io.sparkdcp.testing.SlurmCluster.Job;
import io.sparkdcp.testing.SparkStandIn;
import io.sparkdcp.testing.TreeComparator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * submit-scripts/slurm/spark-dcp.sbatch, unmodified, submitted with sbatch to a real Slurm of four
 * nodes on this host ({@link SlurmCluster}), with a Spark installation made from the build's
 * classpath. Every job is submitted at the start, so the time-limit job's minute runs while the
 * others do. After each job: its exit code and state, no process of it alive, and no node-local
 * scratch (TMPDIR/spark-dcp-JOBID) left. One job runs Spark from the build's jars instead, without
 * SPARK_HOME, with the cluster scripts' SPARK_DCP_* variables.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SlurmBatchScriptTest {
    private static final Path SCRIPT = AppJars.PROJECT.resolve("submit-scripts/slurm/spark-dcp.sbatch");
    /** A node for each node a job asks for: all five jobs run at once (the script asks for whole nodes), none queues. */
    private static final int NODES = 6;
    private static final Duration JOB_TIMEOUT = Duration.ofMinutes(6);
    /** The Slurm job name of the job that runs Spark from the build, and so its application's name. */
    private static final String FROM_BUILD_JOB_NAME = "from-build";
    /** Files of the slow source; each open waits a second, and the copy opens two at a time. */
    private static final int SLOW_FILES = 400;

    @TempDir
    static Path tmp;

    private SlurmCluster slurm;
    private LoopMount xfs;
    private LatencyMount slowSource;
    private Path sparkHome;
    private Path submitDir;
    private Path nodeLocal;
    private RichTree tree;

    private long timeLimitJob;
    private long exactJob;
    private long cancelJob;
    private long missingSourceJob;
    private long failedEntryJob;

    @BeforeAll
    void startSlurmAndSubmitTheJobs() throws Exception {
        LoopMount.requireRootAndXfs();
        SlurmCluster.requireSlurm();
        // First: slurmctld checks time limits every 30 s from its start, so the time-limit job ends
        // 90 s after it whatever else this set-up does before that job starts.
        slurm = SlurmCluster.start(NODES);
        AppJars jars = AppJars.fromLauncherBuild();
        sparkHome = SparkStandIn.install(tmp.resolve("spark"), jars);
        submitDir = Files.createDirectories(tmp.resolve("submit"));
        nodeLocal = Files.createDirectories(tmp.resolve("node-local"));
        xfs = LoopMount.create("slurm", 1024);

        Path backing = Files.createDirectory(xfs.dir().resolve("slow-backing"));
        for (int i = 0; i < SLOW_FILES; i++) Files.writeString(backing.resolve("f" + i), "file " + i + "\n");
        // On the XFS mount: a killed run's stale-mount sweep detaches it with the XFS mount.
        slowSource = LatencyMount.mount(backing, Files.createDirectory(xfs.dir().resolve("slow-src")),
                new LatencyProfile("slow-open", 1_000_000_000L, EnumSet.of(MetadataOp.OPEN), 1.0, 1.0));
        timeLimitJob = submit(List.of("--nodes=1", "--time=1"), slowCopy(xfs.dir().resolve("dst-time-limit")));

        tree = RichTree.build(Files.createDirectory(xfs.dir().resolve("src")));
        exactJob = submit(List.of("--nodes=2", "--time=10"), "copy", "--batch-files", "20", "--chunk-size", "1M", "--xattrs", "all",
                "--report", tmp.resolve("exact-report.json").toString(), tree.root() + "/", xfs.dir().resolve("dst-exact").toString());

        cancelJob = submit(List.of("--nodes=1", "--time=10"), slowCopy(xfs.dir().resolve("dst-cancel")));

        missingSourceJob = submit(List.of("--nodes=1", "--time=10"), "copy", xfs.dir().resolve("absent").toString(),
                xfs.dir().resolve("dst-missing").toString());

        Path failingSrc = Files.createDirectories(xfs.dir().resolve("failing-src/sub"));
        Files.writeString(failingSrc.resolve("b.txt"), "beta\n");
        Files.writeString(failingSrc.resolveSibling("a.txt"), "alpha\n");
        Path failingDst = Files.createDirectories(xfs.dir().resolve("failing-dst"));
        Files.writeString(failingDst.resolve("sub"), "not a directory\n"); // the engine fails that entry
        // Without SPARK_HOME, and with an executor smaller than the node: one core of its two (the
        // application asks for one core in all), 512 MiB. The same short-lived JVMs as SparkStandIn's.
        // Without SPARK_DCP_HOME, submitted from elsewhere: the script finds the project beside itself.
        failedEntryJob = submit(List.of("--nodes=1", "--time=10", "--job-name=" + FROM_BUILD_JOB_NAME),
                Map.of("SPARK_HOME", "", "SPARK_DCP_HOME", "", "SPARK_DCP_EXECUTOR_CORES", "1", "SPARK_DCP_EXECUTOR_MEMORY", "512m",
                        "SPARK_DCP_SUBMIT_OPTIONS", "--conf spark.cores.max=1 --conf spark.driver.defaultJavaOptions=" + ChildJvm.flags()
                                + " --conf spark.executor.defaultJavaOptions=" + ChildJvm.flags(),
                        "SPARK_DAEMON_JAVA_OPTS", ChildJvm.flags()),
                "copy", failingSrc.getParent() + "/", failingDst.toString());
    }

    @AfterAll
    void stopEverything() {
        // Slurm first (its jobs read the slow source), then the FUSE mount, which sits on the XFS one.
        try (LoopMount mount = xfs; LatencyMount fuse = slowSource; SlurmCluster cluster = slurm) {
            // closed in reverse order
        }
    }

    @Test
    void anExactCopyOnTwoNodesExitsZero() throws Exception {
        Job job = slurm.awaitEnd(exactJob, JOB_TIMEOUT);
        assertEquals("COMPLETED", job.state(), output(job));
        assertEquals(0, job.exitCode(), output(job));
        TreeComparator.assertSameTree(tree.root(), xfs.dir().resolve("dst-exact"));
        JsonNode report = new ObjectMapper().readTree(tmp.resolve("exact-report.json").toFile());
        assertEquals(tree.entryCount() + 1, report.get("copied").asLong(), report.toString());
        // srun names worker logs by host (%N), which the nodes share here; the master tells them apart.
        String masterLog = Files.readString(submitDir.resolve("spark-dcp-" + exactJob + "/master.log"));
        List<String> nodes = slurm.nodesOf(job);
        assertEquals(2, nodes.size(), job.line());
        for (String node : nodes) {
            assertTrue(Pattern.compile("Launching executor \\S+ on worker worker-\\d+-" + Pattern.quote(node) + "-").matcher(masterLog).find(),
                    "no executor on node " + node + ":\n" + masterLog);
        }
        // The application is named after the job: spark-submit's --name reaches Spark.
        assertTrue(masterLog.contains("Registering app spark-dcp-" + exactJob + "\n"), masterLog);
        assertNothingLeft(job);
    }

    @Test
    void aMissingSourceExitsTwo() throws Exception {
        Job job = slurm.awaitEnd(missingSourceJob, JOB_TIMEOUT);
        assertEquals("FAILED", job.state(), output(job));
        assertEquals(2, job.exitCode(), output(job));
        assertTrue(output(job).contains(xfs.dir().resolve("absent").toString()), output(job));
        assertTrue(Files.notExists(xfs.dir().resolve("dst-missing")));
        assertNothingLeft(job);
    }

    /** Also: Spark from the build's jars, with executors of SPARK_DCP_EXECUTOR_CORES and _MEMORY, named after the job. */
    @Test
    void aFailedEntryExitsOneWithSparkFromTheBuild() throws Exception {
        Job job = slurm.awaitEnd(failedEntryJob, JOB_TIMEOUT);
        assertEquals("FAILED", job.state(), output(job));
        assertEquals(1, job.exitCode(), output(job));
        assertEquals("alpha\n", Files.readString(xfs.dir().resolve("failing-dst/a.txt")));
        assertEquals("not a directory\n", Files.readString(xfs.dir().resolve("failing-dst/sub")));
        // The worker's log: "Asked to launch executor APP/N for NAME", then the executor's command line.
        String workerLog = workerLogs(job);
        String launch = workerLog.lines().filter(line -> line.contains("Launch command: ")).findFirst().orElse("no executor:\n" + workerLog);
        assertTrue(launch.contains("\"--cores\" \"1\"") && launch.contains("\"-Xmx512M\""), launch);
        assertTrue(launch.contains("/target/spark-home/jars/*"), "not Spark from the build: " + launch);
        assertTrue(workerLog.contains(" for " + FROM_BUILD_JOB_NAME + "-" + failedEntryJob + "\n"), workerLog);
        assertNothingLeft(job);
    }

    @Test
    void scancelDuringTheCopyLeavesNoProcessAndNoScratch() throws Exception {
        Path dst = xfs.dir().resolve("dst-cancel");
        slurm.awaitRunning(cancelJob, JOB_TIMEOUT);
        long deadline = System.nanoTime() + JOB_TIMEOUT.toNanos();
        while (copiedFiles(dst) == 0) { // the executors are copying
            assertTrue(System.nanoTime() < deadline && !slurm.job(cancelJob).ended(), "the copy did not start: " + output(slurm.job(cancelJob)));
            Thread.sleep(500);
        }
        slurm.cancel(cancelJob);
        Job job = slurm.awaitEnd(cancelJob, Duration.ofMinutes(1));
        assertEquals("CANCELLED", job.state(), output(job));
        assertTrue(copiedFiles(dst) < SLOW_FILES, "the copy ended before scancel");
        assertNothingLeft(job);
    }

    @Test
    void theTimeLimitLeavesNoProcessAndNoScratch() throws Exception {
        Job job = slurm.awaitEnd(timeLimitJob, JOB_TIMEOUT);
        assertEquals("TIMEOUT", job.state(), output(job));
        assertTrue(copiedFiles(xfs.dir().resolve("dst-time-limit")) < SLOW_FILES, "the copy ended within the time limit");
        assertNothingLeft(job);
    }

    /**
     * The job's own processes gone, and its scratch removed on every node. Slurm may report a job ended (TIMEOUT)
     * while its processes are still going down: they get SIGTERM, then SIGKILL KillWait (10 s) later. So they have
     * that long and a little more; one left after it is an orphan.
     */
    private void assertNothingLeft(Job job) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (!slurm.processesOf(job.id()).isEmpty() && System.nanoTime() < deadline) Thread.sleep(200);
        assertEquals(List.of(), slurm.processesOf(job.id()), "processes of job " + job.id() + " alive");
        assertTrue(Files.notExists(nodeLocal.resolve("spark-dcp-" + job.id())), "node-local scratch of job " + job.id() + " left behind");
    }

    private long submit(List<String> sbatchOptions, String... spark_dcpArguments) throws IOException {
        return submit(sbatchOptions, Map.of(), spark_dcpArguments);
    }

    /** With these variables set on top of the others (an empty one is unset for the script). */
    private long submit(List<String> sbatchOptions, Map<String, String> variables, String... spark_dcpArguments) throws IOException {
        Map<String, String> env = new HashMap<>(Map.of("SPARK_HOME", sparkHome.toString(), "SPARK_DCP_HOME", AppJars.PROJECT.toString(),
                "SPARK_DCP_DRIVER_MEMORY", "1g", "TMPDIR", nodeLocal.toString(),
                "SPARK_DCP_MASTER_PORT", "" + freePort(), "SPARK_DCP_MASTER_WEBUI_PORT", "" + freePort()));
        env.putAll(variables);
        List<String> arguments = new ArrayList<>(sbatchOptions);
        arguments.add(SCRIPT.toString());
        arguments.addAll(List.of(spark_dcpArguments));
        return slurm.submit(submitDir, env, arguments);
    }

    /** Two batches, one file at a time each: SLOW_FILES / 2 seconds at least. */
    private String[] slowCopy(Path dst) {
        return new String[] {"copy", "--batch-files", "" + SLOW_FILES / 2, "--threads-per-task", "1", slowSource.dir() + "/", dst.toString()};
    }

    private String output(Job job) {
        Path out = submitDir.resolve("spark-dcp-" + job.id() + ".out");
        try {
            return job.line() + "\n" + (Files.exists(out) ? Files.readString(out) : "(no " + out + ")");
        } catch (IOException e) {
            return job.line() + "\n(cannot read " + out + ": " + e + ")";
        }
    }

    /** The job's worker logs (worker-NODE.log in its run directory), one after the other. */
    private String workerLogs(Job job) throws IOException {
        StringBuilder logs = new StringBuilder();
        try (Stream<Path> files = Files.list(submitDir.resolve("spark-dcp-" + job.id()))) {
            for (Path log : files.filter(f -> f.getFileName().toString().startsWith("worker-")).sorted().toList()) logs.append(Files.readString(log));
        }
        return logs.toString();
    }

    private static long copiedFiles(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) return 0;
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(Files::isRegularFile).count();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}

package io.sparkdcp.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkdcp.bench.latencyfs.LatencyMount;
import io.sparkdcp.bench.latencyfs.LatencyProfile;
import io.sparkdcp.bench.latencyfs.MetadataOp;
import io.sparkdcp.testing.AnotherUser;
import io.sparkdcp.testing.AppJars;
import io.sparkdcp.testing.ChildJvm;
import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.RichTree;
import io.sparkdcp.testing.SlurmCluster;
import io.sparkdcp.testing.SlurmCluster.Job;
import io.sparkdcp.testing.SparkStandIn;
import io.sparkdcp.testing.StandaloneCluster;
import io.sparkdcp.testing.TreeComparator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * submit-scripts/slurm/spark-dcp.sbatch, unmodified, submitted with sbatch to a real Slurm of four
 * nodes on this host ({@link SlurmCluster}), with a Spark installation made from the build's
 * classpath. Every job is submitted at the start, so the time-limit job's minute runs while the
 * others do. After each job: its exit code and state, no process of it alive, and no node-local
 * scratch (TMPDIR/spark-dcp-JOBID) left. One job runs Spark from the build's jars instead, without
 * SPARK_HOME, with the cluster scripts' SPARK_DCP_* variables. While one job copies, another user
 * of this host tries its Spark cluster (the job's directories readable by all, as a shared file
 * system's often are).
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
    private final Map<Long, Integer> masterPorts = new HashMap<>();
    private final Map<Long, Integer> masterUiPorts = new HashMap<>();
    private AppJars jars;
    /** Files older than this are not the jobs': the other user's search for the secret reads only newer ones. */
    private Path startMarker;

    @BeforeAll
    void startSlurmAndSubmitTheJobs() throws Exception {
        LoopMount.requireRootAndXfs();
        SlurmCluster.requireSlurm();
        // First: slurmctld checks time limits every 30 s from its start, so the time-limit job ends
        // 90 s after it whatever else this set-up does before that job starts.
        slurm = SlurmCluster.start(NODES);
        startMarker = Files.createFile(tmp.resolve("start-marker"));
        Commands.run("chmod", "755", tmp.toString());
        jars = AppJars.fromLauncherBuild();
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
    void anotherUserIsRefusedThenScancelDuringTheCopyLeavesNoProcessAndNoScratch() throws Exception {
        Path dst = xfs.dir().resolve("dst-cancel");
        slurm.awaitRunning(cancelJob, JOB_TIMEOUT);
        long deadline = System.nanoTime() + JOB_TIMEOUT.toNanos();
        while (copiedFiles(dst) == 0) { // the executors are copying
            assertTrue(System.nanoTime() < deadline && !slurm.job(cancelJob).ended(), "the copy did not start: " + output(slurm.job(cancelJob)));
            Thread.sleep(500);
        }
        try {
            assertAnotherUserIsRefused(slurm.job(cancelJob));
        } finally {
            slurm.cancel(cancelJob);
        }
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
     * Another user of the job's first node, without the secret, starts a driver and a worker against the job's master
     * while the copy runs: the master refuses both (a failed handshake in its log, neither registered, both told
     * "Failed to connect to master"); then no command line and no file that user can read (none of this run's in
     * /tmp, where the submit directory and the node-local scratch are too, and no process's cmdline or environ)
     * holds the job's secret, and the master's REST server and the driver's UI are off.
     */
    private void assertAnotherUserIsRefused(Job job) throws Exception {
        AnotherUser.ensureExists();
        Path runDir = submitDir.resolve("spark-dcp-" + job.id());
        String secret = Files.readAllLines(runDir.resolve("private/spark-dcp.properties")).stream()
                .filter(line -> line.startsWith("spark.authenticate.secret ")).map(line -> line.substring("spark.authenticate.secret ".length()))
                .findFirst().orElseThrow();
        assertEquals(64, secret.length(), "the job's secret");
        Path masterLog = runDir.resolve("master.log");
        String node = slurm.nodesOf(job).get(0);
        String masterUrl = "spark://" + node + ":" + masterPorts.get(job.id());
        long refusedBefore = refusals(masterLog);

        Path other = Files.createDirectories(tmp.resolve("other-user"));
        String classpath = AnotherUser.readableClasspath(other.resolve("jars"), jars.classpath());
        Path appJar = Path.of(AnotherUser.readableClasspath(other.resolve("app"), jars.appJar().toString()));
        Files.createDirectories(other.resolve("spark-home/jars"));
        Path work = Files.createDirectories(other.resolve("work")); // the other user's: its copy's SRC and DST too
        Path src = Files.createDirectories(work.resolve("src"));
        Files.writeString(src.resolve("f"), "f\n");
        Commands.run("chown", "-R", AnotherUser.NAME, work.toString()); // not the jars: they are links to Maven's
        Map<String, String> env = Map.of("SPARK_HOME", other.resolve("spark-home").toString(), "SPARK_SCALA_VERSION", "2.13",
                "SPARK_LOCAL_IP", node, "SPARK_LOCAL_DIRS", work.toString());
        int workerPort = freePort();
        List<String> java = new ArrayList<>(List.of(StandaloneCluster.javaBin(), "-Xmx512m"));
        java.addAll(ChildJvm.FLAGS);
        java.addAll(AppJars.moduleFlags());
        java.addAll(List.of("-Djava.io.tmpdir=" + work, "-cp", classpath));
        List<String> driver = new ArrayList<>(java);
        driver.addAll(List.of("org.apache.spark.deploy.SparkSubmit", "--master", masterUrl, "--deploy-mode", "client", "--name", "intruder",
                "--class", "io.sparkdcp.cli.Main", "--conf", "spark.ui.enabled=false", appJar.toString(), "copy", src + "/", work.resolve("dst").toString()));
        List<String> worker = new ArrayList<>(java);
        worker.addAll(List.of("org.apache.spark.deploy.worker.Worker", "--host", node, "--port", "" + workerPort, "--webui-port", "" + freePort(),
                "--cores", "1", "--memory", "512m", "--work-dir", work.toString(), masterUrl));
        Path driverLog = other.resolve("driver.log");
        Path workerLog = other.resolve("worker.log");
        Process otherDriver = AnotherUser.start(driverLog, env, driver);
        Process otherWorker = AnotherUser.start(workerLog, env, worker);
        try {
            long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
            while (!(Files.readString(driverLog).contains("Failed to connect to master") && Files.readString(workerLog).contains("Failed to connect to master")
                    && refusals(masterLog) >= refusedBefore + 2)) {
                assertTrue(System.nanoTime() < deadline, "no refusal within 3 minutes:\n--- driver\n" + Files.readString(driverLog)
                        + "\n--- worker\n" + Files.readString(workerLog) + "\n--- master\n" + Files.readString(masterLog));
                assertTrue(otherDriver.isAlive() || otherDriver.exitValue() != 0, "the other user's copy ran:\n" + Files.readString(driverLog));
                String master = Files.readString(masterLog);
                assertFalse(master.contains("Registering app intruder") || master.contains("Registering worker " + node + ":" + workerPort), master);
                Thread.sleep(500);
            }
        } finally {
            for (Process p : List.of(otherDriver, otherWorker)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly().waitFor();
            }
        }
        String master = Files.readString(masterLog);
        assertFalse(master.contains("Registering app intruder"), master);
        assertFalse(master.contains("Registering worker " + node + ":" + workerPort), master);
        assertTrue(Files.notExists(work.resolve("dst/f")), "the other user's copy ran");
        assertTrue(master.contains("SecurityManager: authentication enabled"), master);
        assertFalse(master.contains("Started REST server"), master);
        assertTrue(master.contains("Bound MasterWebUI to " + node + ","), master);
        // Anyone on the node can read the master's UI (Spark always starts it): its environment page redacts the secret,
        // and it stops no application.
        HttpClient http = HttpClient.newHttpClient();
        URI ui = URI.create("http://" + node + ":" + masterUiPorts.get(job.id()));
        HttpResponse<String> environment = http.send(HttpRequest.newBuilder(ui.resolve("/environment/")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, environment.statusCode(), environment.body());
        assertTrue(environment.body().contains("spark.authenticate.secret") && !environment.body().contains(secret), environment.body());
        HttpResponse<String> kill = http.send(HttpRequest.newBuilder(ui.resolve("/app/kill/?id=x&terminate=true"))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertTrue(kill.statusCode() >= 400, kill.statusCode() + " " + kill.body());

        Commands.Result ps = AnotherUser.sh("ps -eo args");
        assertEquals(0, ps.exitCode(), ps.stderr());
        assertTrue(ps.stdout().contains("org.apache.spark.deploy.master.Master"), ps.stdout());
        assertFalse(ps.stdout().contains(secret), "the secret in ps -eo args:\n" + ps.stdout());
        // Every file it can read that this run wrote (small ones: no loop image), and every process's cmdline and environ.
        Commands.Result readable = AnotherUser.sh("""
                find /tmp /var/tmp /dev/shm -xdev -type f -readable -size -8M -newer %s \\
                    -exec sh -c 'for f; do printf "\\n==> %%s\\n" "$f"; cat "$f"; done' sh {} + 2>/dev/null
                for f in /proc/[0-9]*/cmdline /proc/[0-9]*/environ; do
                    printf '\\n==> %%s\\n' "$f"; cat "$f" 2>/dev/null
                done
                true
                """.formatted(startMarker));
        assertTrue(readable.stdout().contains("==> " + runDir.resolve("master.log")), "the search did not read the master's log");
        int at = readable.stdout().indexOf(secret);
        if (at >= 0) {
            String before = readable.stdout().substring(0, at);
            throw new AssertionError("the other user can read the secret, in "
                    + before.substring(before.lastIndexOf("\n==> ") + 1).lines().findFirst().orElse("?"));
        }
    }

    /** The master's log lines for a connection that did not authenticate. */
    private static long refusals(Path masterLog) throws IOException {
        return Files.readString(masterLog).lines().filter(line -> line.contains("Failed to parse new auth challenge")).count();
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
        int masterPort = freePort();
        int masterUiPort = freePort();
        Map<String, String> env = new HashMap<>(Map.of("SPARK_HOME", sparkHome.toString(), "SPARK_DCP_HOME", AppJars.PROJECT.toString(),
                "SPARK_DCP_DRIVER_MEMORY", "1g", "TMPDIR", nodeLocal.toString(),
                "SPARK_DCP_MASTER_PORT", "" + masterPort, "SPARK_DCP_MASTER_WEBUI_PORT", "" + masterUiPort));
        env.putAll(variables);
        List<String> arguments = new ArrayList<>(sbatchOptions);
        arguments.add(SCRIPT.toString());
        arguments.addAll(List.of(spark_dcpArguments));
        long job = slurm.submit(submitDir, env, arguments);
        masterPorts.put(job, masterPort);
        masterUiPorts.put(job, masterUiPort);
        return job;
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

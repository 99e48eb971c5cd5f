package io.sparkdcp.testing;

import io.sparkdcp.posix.Posix;
import org.junit.jupiter.api.Assumptions;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A real Slurm on this host (Debian's slurmctld, slurmd and munge): a private munged, one
 * slurmctld and one slurmd per node, all in the foreground as children of this JVM, with their
 * configuration, state, spool, sockets and logs in {@code BASE/slurm-p<pid>-<random>/}. Nodes
 * are named 127.0.0.1, 127.0.0.2 ...: Debian's slurmd is built for several daemons on one host
 * ({@code slurmd -N NAME}), and each name is a loopback address of its own, so what a job starts
 * on a node can bind to that node's name as on separate hosts. The nodes share this host's /tmp.
 * Closing stops every daemon and every process of its jobs by PID; the first cluster of a JVM
 * does the same for what a killed earlier run left behind.
 */
public final class SlurmCluster implements AutoCloseable {
    public static final Path BASE = Path.of("/tmp/spark-dcp-test-slurm");
    private static final Pattern HOME_NAME = Pattern.compile("slurm-p(\\d+)-[0-9a-f]+");
    private static final Set<SlurmCluster> OPEN = ConcurrentHashMap.newKeySet();
    private static final List<String> DAEMONS = List.of("/usr/sbin/munged", "/usr/sbin/slurmctld", "/usr/sbin/slurmd");
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(15);
    /** States of a job that has not ended yet (COMPLETING: its processes are still being stopped). */
    private static final Set<String> UNFINISHED = Set.of("PENDING", "CONFIGURING", "RUNNING", "COMPLETING", "SUSPENDED",
            "REQUEUED", "RESIZING", "SIGNALING", "STAGE_OUT");
    private static boolean staleCleared;

    private final Path home;
    private final Path conf;
    private final List<String> nodes;
    private final List<Process> daemons = new ArrayList<>();
    private boolean closed;

    /** A job as {@code scontrol show job} tells it: its state and the exit code of its batch script. */
    public record Job(long id, String state, String reason, int exitCode, String line) {
        public boolean ended() {
            return !UNFINISHED.contains(state);
        }
    }

    private SlurmCluster(Path home, List<String> nodes) {
        this.home = home;
        this.conf = home.resolve("slurm.conf");
        this.nodes = nodes;
    }

    /**
     * Skips the calling test unless it runs as root with Slurm and munge installed (.ci/run
     * installs them); under CI=true it fails instead.
     */
    public static void requireSlurm() {
        boolean ready = Posix.geteuid() == 0 && DAEMONS.stream().allMatch(d -> Files.isExecutable(Path.of(d)))
                && Commands.available("sbatch") && Commands.available("setpriv");
        String reason = "needs root, slurmctld, slurmd, slurm-client and munge";
        if ("true".equals(System.getenv("CI"))) {
            if (!ready) throw new AssertionError(reason + ", and CI=true forbids skipping");
        } else {
            Assumptions.assumeTrue(ready, reason);
        }
    }

    /** Starts munged, slurmctld and nodeCount slurmd, and waits until every node is idle. */
    public static SlurmCluster start(int nodeCount) throws IOException, InterruptedException {
        clearStaleOnce();
        List<String> nodes = new ArrayList<>();
        for (int i = 1; i <= nodeCount; i++) nodes.add("127.0.0." + i);
        Path home = BASE.resolve("slurm-p" + ProcessHandle.current().pid() + "-" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 1));
        SlurmCluster cluster = new SlurmCluster(home, nodes);
        OPEN.add(cluster);
        try {
            cluster.startDaemons();
        } catch (IOException | InterruptedException | RuntimeException | Error e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    public List<String> nodes() { return nodes; }

    /** The daemons' configuration, state, spool (job scripts and environments) and logs. */
    public Path home() { return home; }

    /** What Slurm's commands need to find this cluster (the job's environment passes it on to srun). */
    public Map<String, String> clientEnvironment() {
        return Map.of("SLURM_CONF", conf.toString());
    }

    /** sbatch run in submitDir with the environment given on top of this JVM's; returns the job ID. */
    public long submit(Path submitDir, Map<String, String> environment, List<String> sbatchArguments) {
        List<String> argv = new ArrayList<>(List.of("sbatch", "--parsable"));
        argv.addAll(sbatchArguments);
        Commands.Result result = client(submitDir, environment, argv);
        if (result.exitCode() != 0) throw new IllegalStateException("sbatch exited " + result.exitCode() + ": " + result.stderr().strip());
        return Long.parseLong(result.stdout().strip().split(";")[0]);
    }

    public void cancel(long jobId) {
        Commands.Result result = client(home, Map.of(), List.of("scancel", "" + jobId));
        if (result.exitCode() != 0) throw new IllegalStateException("scancel " + jobId + " exited " + result.exitCode() + ": " + result.stderr());
    }

    public Job job(long jobId) {
        Commands.Result result = client(home, Map.of(), List.of("scontrol", "-o", "show", "job", "" + jobId));
        if (result.exitCode() != 0) throw new IllegalStateException("scontrol show job " + jobId + ": " + result.stderr().strip());
        String line = result.stdout().strip();
        Matcher exit = Pattern.compile("\\bExitCode=(\\d+):(\\d+)").matcher(line);
        if (!exit.find()) throw new IllegalStateException("no exit code in: " + line);
        return new Job(jobId, field(line, "JobState"), field(line, "Reason"), Integer.parseInt(exit.group(1)), line);
    }

    /** The nodes the job ran on. */
    public List<String> nodesOf(Job job) {
        Commands.Result result = client(home, Map.of(), List.of("scontrol", "show", "hostnames", field(job.line(), "NodeList")));
        if (result.exitCode() != 0) throw new IllegalStateException("scontrol show hostnames: " + result.stderr().strip());
        return result.stdout().lines().toList();
    }

    /**
     * Polls the job until it has ended, every half second: {@code sbatch --wait} checks at 2, 8
     * and 32 s, so a 16 s job would return after 42 s.
     */
    public Job awaitEnd(long jobId, Duration timeout) throws InterruptedException {
        return await(jobId, timeout, Job::ended, "end");
    }

    public Job awaitRunning(long jobId, Duration timeout) throws InterruptedException {
        return await(jobId, timeout, job -> !"PENDING".equals(job.state()), "start");
    }

    private Job await(long jobId, Duration timeout, java.util.function.Predicate<Job> done, String what) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Job job = job(jobId);
            if (done.test(job)) return job;
            if (System.nanoTime() > deadline) throw new AssertionError("job " + jobId + " did not " + what + " within " + timeout + ": " + job.line());
            Thread.sleep(500);
        }
    }

    /** PIDs of live processes that belong to the job: their environment names this cluster and the job. */
    public List<Long> processesOf(long jobId) {
        return processesWhoseEnvironmentHas("SLURM_CONF=" + conf, "SLURM_JOB_ID=" + jobId);
    }

    /** Stops the daemons (SIGTERM, then SIGKILL), then kills any process of a job still alive. */
    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        OPEN.remove(this);
        List<Process> lastFirst = new ArrayList<>(daemons);
        java.util.Collections.reverse(lastFirst); // the slurmds before slurmctld, munged last
        lastFirst.forEach(Process::destroy);
        lastFirst.forEach(daemon -> stop(daemon.toHandle()));
        killMentioning(home);
        deleteTree(home);
    }

    private void startDaemons() throws IOException, InterruptedException {
        Files.createDirectories(home.resolve("log"));
        Files.createDirectories(home.resolve("state"));
        Files.createDirectories(home.resolve("spool"));
        Path munge = startMunge();
        int nodeMemory = realMemoryMiB() * 85 / 100 / nodes.size();
        Files.writeString(conf, configuration(munge.resolve("socket"), Runtime.getRuntime().availableProcessors(), nodeMemory));
        daemons.add(daemon(home.resolve("log/slurmctld.out"), "/usr/sbin/slurmctld", "-D", "-f", conf.toString()));
        for (String node : nodes) {
            daemons.add(daemon(home.resolve("log/slurmd-" + node + ".out"), "/usr/sbin/slurmd", "-D", "-f", conf.toString(), "-N", node));
        }
        awaitIdleNodes();
    }

    /** munged as the munge user, with its own key and socket; it refuses a socket directory others cannot enter. */
    private Path startMunge() throws IOException, InterruptedException {
        Path dir = Files.createDirectories(home.resolve("munge"));
        Path key = dir.resolve("munge.key");
        byte[] secret = new byte[1024];
        new SecureRandom().nextBytes(secret);
        Files.write(key, secret);
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("r--------"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Commands.run("chown", "-R", "munge:munge", dir.toString());
        Path socket = dir.resolve("socket");
        daemons.add(daemon(home.resolve("log/munged.out"), "setpriv", "--reuid=munge", "--regid=munge", "--clear-groups",
                "/usr/sbin/munged", "--foreground", "--socket=" + socket, "--key-file=" + key, "--pid-file=" + dir.resolve("munged.pid"),
                "--log-file=" + dir.resolve("munged.log"), "--seed-file=" + dir.resolve("seed")));
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (!Files.exists(socket)) {
            if (System.nanoTime() > deadline || !daemons.get(daemons.size() - 1).isAlive()) throw new IllegalStateException("munged did not start: " + logs());
            Thread.sleep(50);
        }
        return dir;
    }

    private String configuration(Path mungeSocket, int cpus, int memoryMiB) throws IOException {
        List<String> lines = new ArrayList<>(List.of(
                "ClusterName=sparkdcptest",
                "SlurmctldHost=" + Commands.run("hostname", "-s").strip() + "(127.0.0.1)",
                "SlurmctldPort=" + freePort(),
                "SlurmUser=root",
                "SlurmdUser=root",
                "AuthType=auth/munge",
                "CredType=cred/munge",
                "AuthInfo=socket=" + mungeSocket,
                // No cgroups here: processes are tracked by parentage, tasks are not bound.
                "ProctrackType=proctrack/linuxproc",
                "TaskPlugin=task/none",
                "SelectType=select/cons_tres",
                "SelectTypeParameters=CR_Core_Memory",
                "AccountingStorageType=accounting_storage/none",
                "JobAcctGatherType=jobacct_gather/none",
                "MpiDefault=none",
                "MailProg=/bin/true",
                "ReturnToService=2",
                // SIGTERM to SIGKILL: the job's traps have this long to stop Spark and remove the scratch.
                "KillWait=10",
                // Ended jobs stay known for an hour (default 300 s): a loaded machine checks some late.
                "MinJobAge=3600",
                "StateSaveLocation=" + home.resolve("state"),
                "SlurmdSpoolDir=" + home.resolve("spool/%n"),
                "SlurmctldPidFile=" + home.resolve("slurmctld.pid"),
                "SlurmdPidFile=" + home.resolve("slurmd-%n.pid"),
                "SlurmctldLogFile=" + home.resolve("log/slurmctld.log"),
                "SlurmdLogFile=" + home.resolve("log/slurmd-%n.log")));
        String hostname = Commands.run("hostname", "-s").strip();
        for (String node : nodes) {
            lines.add("NodeName=" + node + " NodeHostname=" + hostname + " NodeAddr=127.0.0.1 Port=" + freePort()
                    + " CPUs=" + cpus + " RealMemory=" + memoryMiB);
        }
        lines.add("PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP");
        return String.join("\n", lines) + "\n";
    }

    /** What slurmd -C finds on this host, in MiB. */
    private static int realMemoryMiB() {
        Matcher m = Pattern.compile("RealMemory=(\\d+)").matcher(Commands.run("/usr/sbin/slurmd", "-C"));
        if (!m.find()) throw new IllegalStateException("slurmd -C printed no RealMemory");
        return Integer.parseInt(m.group(1));
    }

    private void awaitIdleNodes() throws InterruptedException, IOException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (true) {
            Commands.Result sinfo = client(home, Map.of(), List.of("sinfo", "-h", "-N", "-o", "%N %t"));
            long idle = sinfo.stdout().lines().filter(line -> line.endsWith(" idle")).count();
            if (sinfo.exitCode() == 0 && idle == nodes.size()) return;
            if (System.nanoTime() > deadline || daemons.stream().anyMatch(d -> !d.isAlive())) {
                throw new IllegalStateException("Slurm did not bring " + nodes.size() + " nodes to idle: " + sinfo.stdout() + sinfo.stderr() + logs());
            }
            Thread.sleep(200);
        }
    }

    private Process daemon(Path output, String... argv) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(output.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        builder.environment().put("SLURM_CONF", conf.toString());
        return builder.start();
    }

    private Commands.Result client(Path directory, Map<String, String> environment, List<String> argv) {
        ProcessBuilder builder = new ProcessBuilder(argv).directory(directory.toFile());
        builder.environment().putAll(environment);
        builder.environment().put("SLURM_CONF", conf.toString());
        return Commands.tryRun(builder);
    }

    private String logs() throws IOException {
        StringBuilder out = new StringBuilder();
        try (Stream<Path> files = Files.walk(home.resolve("log"))) {
            for (Path log : files.filter(Files::isRegularFile).sorted().toList()) {
                List<String> lines = Files.readAllLines(log, StandardCharsets.ISO_8859_1);
                out.append("\n--- ").append(log).append('\n').append(String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size())));
            }
        }
        Path mungeLog = home.resolve("munge/munged.log");
        if (Files.exists(mungeLog)) out.append("\n--- ").append(mungeLog).append('\n').append(Files.readString(mungeLog, StandardCharsets.ISO_8859_1));
        return out.toString();
    }

    private static void stop(ProcessHandle process) {
        process.destroy();
        try {
            process.onExit().get(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (Exception notYet) {
            process.destroyForcibly();
            process.onExit().join();
        }
    }

    /** Every process whose command line or environment names the directory: daemons, slurmstepd, job processes. */
    private static void killMentioning(Path dir) {
        byte[] text = dir.toString().getBytes(StandardCharsets.UTF_8);
        for (int round = 0; round < 3; round++) {
            List<ProcessHandle> found = ProcessHandle.allProcesses()
                    .filter(p -> p.pid() != ProcessHandle.current().pid())
                    .filter(p -> contains(procFile(p.pid(), "cmdline"), text) || contains(procFile(p.pid(), "environ"), text)).toList();
            if (found.isEmpty()) return;
            found.forEach(ProcessHandle::destroyForcibly);
            found.forEach(p -> p.onExit().join());
        }
    }

    private static List<Long> processesWhoseEnvironmentHas(String... variables) {
        List<byte[]> wanted = Stream.of(variables).map(v -> ("\0" + v + "\0").getBytes(StandardCharsets.UTF_8)).toList();
        return ProcessHandle.allProcesses().filter(ProcessHandle::isAlive).mapToLong(ProcessHandle::pid)
                .filter(pid -> {
                    byte[] environ = procFile(pid, "environ");
                    byte[] framed = new byte[environ.length + 1];
                    System.arraycopy(environ, 0, framed, 1, environ.length); // "\0" before the first variable too
                    return wanted.stream().allMatch(w -> contains(framed, w));
                }).boxed().toList();
    }

    private static byte[] procFile(long pid, String name) {
        try {
            return Files.readAllBytes(Path.of("/proc", "" + pid, name));
        } catch (IOException gone) {
            return new byte[0];
        }
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) if (haystack[i + j] != needle[j]) continue outer;
            return true;
        }
        return false;
    }

    private static String field(String line, String name) {
        Matcher m = Pattern.compile("\\b" + name + "=(\\S*)").matcher(line);
        return m.find() ? m.group(1) : "";
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** First cluster of this JVM: stop what clusters of dead JVMs left running, and delete their homes. */
    private static synchronized void clearStaleOnce() throws IOException {
        if (staleCleared) return;
        staleCleared = true;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> List.copyOf(OPEN).forEach(SlurmCluster::closeQuietly), "slurm-cleanup"));
        if (!Files.isDirectory(BASE)) return;
        try (Stream<Path> homes = Files.list(BASE)) {
            for (Path stale : homes.filter(SlurmCluster::isLeftover).toList()) {
                killMentioning(stale);
                deleteTree(stale);
            }
        }
    }

    private static boolean isLeftover(Path home) {
        Matcher m = HOME_NAME.matcher(home.getFileName().toString());
        return m.matches() && ProcessHandle.of(Long.parseLong(m.group(1))).map(p -> !p.isAlive()).orElse(true);
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) return;
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir, e);
        }
    }

    private static void closeQuietly(SlurmCluster cluster) {
        try {
            cluster.close();
        } catch (RuntimeException ignored) {
            // JVM shutdown: the next run's sweep finishes the job.
        }
    }

    @Override
    public String toString() {
        return "SlurmCluster[" + home + ", nodes " + nodes + "]";
    }
}

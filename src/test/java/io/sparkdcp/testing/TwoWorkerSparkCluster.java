package io.sparkdcp.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Spark standalone master and workers (one core each) started from this JVM's classpath, for
 * tests that kill a worker mid-job. Each process logs to a file under home. Closing kills every
 * process it started, and what they started (executors), by process id.
 */
public final class TwoWorkerSparkCluster implements AutoCloseable {
    private static final long START_TIMEOUT_SECONDS = 180; // generous: JVMs start slowly on a loaded CI machine

    private final Path home;
    private final int masterPort;
    private final List<Process> processes = new ArrayList<>();
    private final List<Process> workers = new ArrayList<>();
    private final List<ProcessHandle> orphans = new ArrayList<>();

    private final int masterUiPort = freePort();

    private TwoWorkerSparkCluster(Path home, int masterPort) {
        this.home = home;
        this.masterPort = masterPort;
    }

    public static TwoWorkerSparkCluster start(Path home, int workerCount) {
        try {
            // Workers need a SPARK_HOME with a jars/ folder, even an empty one.
            Files.createDirectories(home.resolve("spark-home/jars"));
            TwoWorkerSparkCluster cluster = new TwoWorkerSparkCluster(home, freePort());
            try {
                cluster.startMaster();
                cluster.awaitAliveWorkers(0); // workers started before the master wait seconds to retry registering
                for (int i = 0; i < workerCount; i++) cluster.startWorker(i);
                cluster.awaitAliveWorkers(workerCount);
            } catch (RuntimeException e) {
                cluster.close();
                throw e;
            }
            return cluster;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String masterUrl() { return "spark://127.0.0.1:" + masterPort; }

    /** The node is lost: worker i and its executors, with SIGKILL. */
    public void killWorker(int i) {
        Process worker = workers.get(i);
        List<ProcessHandle> executors = worker.descendants().toList();
        orphans.addAll(executors); // so close() can end one that outlived this
        executors.forEach(ProcessHandle::destroyForcibly);
        worker.destroyForcibly();
    }

    /**
     * SIGKILL to worker i alone: its executor, cut off, keeps running its tasks until Spark's worker
     * watcher ends it, while the driver runs them again elsewhere.
     */
    public void killWorkerAlone(int i) {
        Process worker = workers.get(i);
        orphans.addAll(worker.descendants().toList()); // so close() can end the executor if it lingers
        worker.destroyForcibly();
    }

    /** A java command with this JVM's classpath and the module flags Spark needs; spark.* properties go to SparkConf. */
    public static List<String> javaCommand(String mainClass, List<String> systemProperties, List<String> args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx1g");
        cmd.addAll(ChildJvm.FLAGS);
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (a.startsWith("--add-opens") || a.startsWith("-Djdk.reflect") || a.startsWith("-Dio.netty")) cmd.add(a);
        }
        cmd.addAll(systemProperties);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(mainClass);
        cmd.addAll(args);
        return cmd;
    }

    /** Starts a process with the environment the cluster's processes need, its output in home/logName. */
    public Process launch(List<String> command, String logName) {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(home.resolve(logName).toFile());
        pb.environment().put("SPARK_HOME", home.resolve("spark-home").toString());
        pb.environment().put("SPARK_SCALA_VERSION", "2.13");
        pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
        try {
            Process p = pb.start();
            processes.add(p);
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void startMaster() {
        launch(javaCommand("org.apache.spark.deploy.master.Master", List.of(),
                List.of("--host", "127.0.0.1", "--port", String.valueOf(masterPort), "--webui-port", String.valueOf(masterUiPort))),
                "master.log");
    }

    private void startWorker(int i) throws IOException {
        Path work = Files.createDirectories(home.resolve("work-" + i));
        workers.add(launch(javaCommand("org.apache.spark.deploy.worker.Worker", List.of(),
                List.of("--host", "127.0.0.1", "--cores", "1", "--memory", "1500m", "--webui-port", String.valueOf(freePort()),
                        "--work-dir", work.toString(), masterUrl())), "worker-" + i + ".log"));
    }

    /** Polls the master's JSON status page (logs are at WARN in tests) until it lists n alive workers. */
    private void awaitAliveWorkers(int n) {
        HttpClient http = HttpClient.newHttpClient();
        HttpRequest status = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + masterUiPort + "/json/")).build();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_SECONDS);
        String last = "";
        while (System.nanoTime() < deadline) {
            try {
                last = http.send(status, HttpResponse.BodyHandlers.ofString()).body();
                if (last.replace(" ", "").contains("\"aliveworkers\":" + n)) return;
            } catch (IOException notUpYet) {
                last = notUpYet.toString();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            sleep(200);
        }
        throw new IllegalStateException("the master did not list " + n + " alive workers within " + START_TIMEOUT_SECONDS + " s: " + last);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        orphans.forEach(ProcessHandle::destroyForcibly);
        for (Process p : processes) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        for (Process p : processes) {
            try {
                p.waitFor(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}

package io.sparkdcp.testing;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A Spark standalone cluster made of separate JVMs started from a classpath (the build's
 * target/classpath.txt): one master and some one-core workers on 127.0.0.1, authenticated when
 * started with a secret (a properties file of mode 0600 that the master and workers read, as
 * docs/cluster.md shows). Logs go to files in {@code home}; closing kills every process it
 * started, executors included.
 */
public final class StandaloneCluster implements AutoCloseable {
    private static final long START_SECONDS = 180; // JVMs start slowly on a loaded 2-core machine

    private final Path home;
    private final String classpath;
    private final List<Process> processes = new ArrayList<>();
    private final List<Path> workerLogs = new ArrayList<>();
    private final String secret;
    private String masterUrl;

    private StandaloneCluster(Path home, String classpath, String secret) {
        this.home = home;
        this.classpath = classpath;
        this.secret = secret;
    }

    /** Starts the master and the workers; {@link #awaitWorkers()} waits until they have registered. */
    public static StandaloneCluster start(Path home, String classpath, int workers, String workerMemory) throws IOException, InterruptedException {
        return start(home, classpath, workers, workerMemory, null);
    }

    /** The same, authenticated with {@code secret} unless it is null (the master's REST server off). */
    public static StandaloneCluster start(Path home, String classpath, int workers, String workerMemory, String secret)
            throws IOException, InterruptedException {
        StandaloneCluster cluster = new StandaloneCluster(home, classpath, secret);
        try {
            cluster.startAll(workers, workerMemory);
            return cluster;
        } catch (IOException | InterruptedException | RuntimeException | Error e) {
            cluster.close();
            throw e;
        }
    }

    private void startAll(int workers, String workerMemory) throws IOException, InterruptedException {
        // Workers need SPARK_HOME with a jars/ folder (empty is fine: executors get extraClassPath).
        Path sparkHome = Files.createDirectories(home.resolve("spark-home"));
        Files.createDirectories(sparkHome.resolve("jars"));
        int port = freePort();
        masterUrl = "spark://127.0.0.1:" + port;
        List<String> properties = secret == null ? List.of() : List.of("--properties-file", daemonProperties().toString());
        launch(sparkHome, masterLog(), "org.apache.spark.deploy.master.Master",
                concat(List.of("--host", "127.0.0.1", "--port", "" + port, "--webui-port", "" + freePort()), properties));
        for (int i = 0; i < workers; i++) {
            Path log = home.resolve("worker-" + i + ".log");
            workerLogs.add(log);
            launch(sparkHome, log, "org.apache.spark.deploy.worker.Worker", concat(List.of("--host", "127.0.0.1", "--cores", "1",
                    "--memory", workerMemory, "--webui-port", "" + freePort(), "--work-dir",
                    Files.createDirectories(home.resolve("work-" + i)).toString()), properties, List.of(masterUrl)));
        }
    }

    /** The daemons' properties: authentication with the secret, readable by this user only. */
    private Path daemonProperties() throws IOException {
        Path file = home.resolve("daemon.properties");
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(file, "spark.authenticate true\nspark.authenticate.secret " + secret + "\nspark.master.rest.enabled false\n");
        return file;
    }

    @SafeVarargs
    private static String[] concat(List<String>... parts) {
        return Stream.of(parts).flatMap(List::stream).toArray(String[]::new);
    }

    /** Returns once the master takes registrations. */
    public void awaitMaster() throws IOException, InterruptedException {
        awaitLine(masterLog(), "I have been elected leader!");
    }

    public Path masterLog() { return home.resolve("master.log"); }

    /** Returns once every worker has registered with the master. */
    public void awaitWorkers() throws IOException, InterruptedException {
        for (Path log : workerLogs) awaitLine(log, "Successfully registered with master");
    }

    public String masterUrl() { return masterUrl; }

    /** Each worker's log: the tests read which workers ran executors. */
    public List<Path> workerLogs() { return List.copyOf(workerLogs); }

    private void launch(Path sparkHome, Path log, String mainClass, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(javaBin(), "-Xmx512m"));
        command.addAll(ChildJvm.FLAGS);
        command.addAll(List.of("-cp", classpath, mainClass));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        builder.environment().put("SPARK_HOME", sparkHome.toString());
        builder.environment().put("SPARK_SCALA_VERSION", "2.13");
        builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
        processes.add(builder.start());
    }

    private void awaitLine(Path log, String text) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_SECONDS);
        while (System.nanoTime() < deadline) {
            if (Files.exists(log) && Files.readString(log).contains(text)) return;
            for (Process p : processes) {
                if (!p.isAlive()) throw new IllegalStateException("a cluster process exited " + p.exitValue() + "; " + log + ":\n" + Files.readString(log));
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("no '" + text + "' in " + log + " after " + START_SECONDS + " s:\n" + Files.readString(log));
    }

    public static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** Kills executors (the workers' children) first, then workers and master; waits for each. */
    @Override
    public void close() {
        for (Process p : processes) p.descendants().forEach(ProcessHandle::destroyForcibly);
        for (Process p : processes) p.destroyForcibly();
        for (Process p : processes) {
            try {
                p.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Override
    public String toString() {
        return "StandaloneCluster[" + masterUrl + "]";
    }
}

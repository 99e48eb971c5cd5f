package io.sparkdcp.testing;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.NoSuchFileException;
import java.nio.file.FileVisitResult;
import java.nio.file.SimpleFileVisitor;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A real YARN on loopback: Hadoop's MiniYARNCluster (one ResourceManager, one NodeManager) in a JVM
 * of its own ({@link YarnClusterMain}), started from this build's test classpath in {@code home}.
 * {@link #confDir()} is what a site's HADOOP_CONF_DIR would be; a {@link YarnClient} on it tells
 * how the applications ended. Closing stops the cluster and kills every container it started.
 */
public final class YarnCluster implements AutoCloseable {
    private static final long START_SECONDS = 180; // ~7 s alone; much more on a loaded 2-core machine
    private static final long STOP_SECONDS = 3;

    private final Path home;
    private final Process process;
    private final OutputStream stdin;
    private YarnClient client;

    private YarnCluster(Path home, Process process) {
        this.home = home;
        this.process = process;
        this.stdin = process.getOutputStream();
    }

    public static YarnCluster start(Path home) throws IOException, InterruptedException {
        String classpath = ReadableClasspath.entriesWithJunit().stream().map(Path::toString).collect(Collectors.joining(":"));
        List<String> command = new ArrayList<>(List.of(StandaloneCluster.javaBin(), "-Xmx768m"));
        command.addAll(ChildJvm.FLAGS);
        command.addAll(List.of("--add-opens=java.base/java.lang=ALL-UNNAMED", // Guice, in the RM's web app
                "-cp", classpath, YarnClusterMain.class.getName()));
        ProcessBuilder builder = new ProcessBuilder(command).directory(Files.createDirectories(home).toFile())
                .redirectErrorStream(true).redirectOutput(home.resolve("cluster.log").toFile())
                .redirectInput(ProcessBuilder.Redirect.PIPE);
        // Containers run $JAVA_HOME/bin/java: the NodeManager passes its own JAVA_HOME on.
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        YarnCluster cluster = new YarnCluster(home, builder.start());
        try {
            cluster.awaitReady();
            return cluster;
        } catch (IOException | InterruptedException | RuntimeException | Error e) {
            cluster.close();
            throw e;
        }
    }

    private void awaitReady() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_SECONDS);
        while (!Files.exists(confDir().resolve("yarn-site.xml"))) {
            if (!process.isAlive()) throw new IllegalStateException("the YARN cluster exited " + process.exitValue() + ":\n" + log());
            if (System.nanoTime() > deadline) throw new IllegalStateException("YARN not up after " + START_SECONDS + " s:\n" + log());
            Thread.sleep(200);
        }
        Configuration conf = new YarnConfiguration();
        conf.addResource(new org.apache.hadoop.fs.Path(confDir().resolve("yarn-site.xml").toUri()));
        client = YarnClient.createYarnClient();
        client.init(conf);
        client.start();
    }

    /** HADOOP_CONF_DIR for spark-submit: the running cluster's yarn-site.xml. */
    public Path confDir() {
        return home.resolve("conf");
    }

    /** Every application the ResourceManager knows. */
    public Set<ApplicationId> applications() throws Exception {
        Set<ApplicationId> ids = new HashSet<>();
        for (ApplicationReport report : client.getApplications()) ids.add(report.getApplicationId());
        return ids;
    }

    public ApplicationReport report(ApplicationId id) throws Exception {
        return client.getApplicationReport(id);
    }

    public int attempts(ApplicationId id) throws Exception {
        return client.getApplicationAttempts(id).size();
    }

    /** SIGKILL to one of the running executors' JVMs (containers are the NodeManager's descendants). */
    public void killOneExecutor() {
        ProcessHandle executor = process.descendants()
                .filter(p -> p.info().commandLine().orElse("").contains("YarnCoarseGrainedExecutorBackend"))
                .filter(p -> p.info().command().orElse("").endsWith("/java"))
                .findFirst().orElseThrow(() -> new IllegalStateException("no executor JVM among the containers"));
        if (!executor.destroyForcibly()) throw new IllegalStateException("could not kill executor " + executor.pid());
    }

    /** The containers' stdout and stderr files (the NodeManager's log dirs), for a failing test's message. */
    public String containerLogs() throws IOException {
        StringBuilder out = new StringBuilder();
        List<Path> logs = new ArrayList<>();
        // The NodeManager removes a finished container's private files while we walk: skip what vanished.
        Files.walkFileTree(home, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path p, BasicFileAttributes attrs) {
                if (p.toString().contains("container_") && attrs.isRegularFile() && (p.endsWith("stdout") || p.endsWith("stderr")))
                    logs.add(p);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path p, IOException e) {
                return FileVisitResult.CONTINUE;
            }
        });
        for (Path f : logs.stream().sorted().toList()) {
            try {
                out.append("==> ").append(f).append('\n').append(Files.readString(f)).append('\n');
            } catch (NoSuchFileException gone) {
                out.append("==> ").append(f).append(": removed by the NodeManager\n");
            }
        }
        return out.toString();
    }

    private String log() throws IOException {
        return Files.readString(home.resolve("cluster.log"));
    }

    /** Asks the cluster to stop (its stdin closes), then kills what is left: containers first. */
    @Override
    public void close() {
        if (client != null) client.stop();
        List<ProcessHandle> started = process.descendants().toList(); // orphans once the cluster's JVM is gone
        try {
            stdin.close();
        } catch (IOException ignored) { // the process is gone already
        }
        try {
            // MiniYARNCluster's own stop was seen to use up the 30 s this waited before, at a test class's end;
            // nothing of the cluster is kept, so it gets a few seconds and is then killed.
            if (!process.waitFor(STOP_SECONDS, TimeUnit.SECONDS)) process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        started.forEach(ProcessHandle::destroyForcibly);
    }

    @Override
    public String toString() {
        return "YarnCluster[" + home + "]";
    }

}

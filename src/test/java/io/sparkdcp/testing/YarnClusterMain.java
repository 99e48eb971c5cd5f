package io.sparkdcp.testing;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The JVM {@link YarnCluster} starts: Hadoop's MiniYARNCluster, one ResourceManager and one
 * NodeManager on loopback, working in the current directory. Writes {@code conf/yarn-site.xml}
 * once the RM listens and the NM has registered (its existence is the signal), and stops when its
 * standard input closes (the test ended, or its JVM died).
 */
public final class YarnClusterMain {
    private YarnClusterMain() {}

    public static void main(String[] args) throws Exception {
        MiniYARNCluster cluster = new MiniYARNCluster("spark-dcp", 1, 1, 1);
        cluster.init(configuration());
        cluster.start();
        if (!cluster.waitForNodeManagersToConnect(120_000)) throw new IllegalStateException("the NodeManager did not register");
        Configuration live = cluster.getConfig();
        if (live.get(YarnConfiguration.RM_ADDRESS, "").endsWith(":0")) throw new IllegalStateException("the RM has no port: " + live.get(YarnConfiguration.RM_ADDRESS));
        Path conf = Files.createDirectories(Path.of("conf"));
        Path partial = conf.resolve("yarn-site.xml.partial");
        try (OutputStream out = Files.newOutputStream(partial)) {
            live.writeXml(out);
        }
        Files.move(partial, conf.resolve("yarn-site.xml"), StandardCopyOption.ATOMIC_MOVE);
        System.out.println("yarn cluster ready: " + live.get(YarnConfiguration.RM_ADDRESS));
        while (System.in.read() != -1) { // until the test closes the pipe
        }
        cluster.stop();
    }

    /** What a real site's capacity-scheduler.xml and yarn-site.xml would say, for one small node. */
    private static YarnConfiguration configuration() {
        YarnConfiguration conf = new YarnConfiguration();
        String queue = "yarn.scheduler.capacity.root.default.";
        conf.set("yarn.scheduler.capacity.root.queues", "default");
        conf.set(queue + "capacity", "100");
        conf.set(queue + "maximum-capacity", "100");
        conf.set(queue + "state", "RUNNING");
        conf.set(queue + "acl_submit_applications", "*");
        conf.set(queue + "acl_administer_queue", "*");
        // The AM and the executors share one node: let AMs take all of it.
        conf.set("yarn.scheduler.capacity.maximum-am-resource-percent", "1.0");
        conf.set("yarn.nodemanager.disk-health-checker.max-disk-utilization-per-disk-percentage", "100.0");
        conf.setInt("yarn.scheduler.minimum-allocation-mb", 128);
        conf.setInt("yarn.nodemanager.resource.memory-mb", 8192);
        conf.setInt("yarn.nodemanager.resource.cpu-vcores", 8);
        conf.setBoolean("yarn.nodemanager.pmem-check-enabled", false);
        conf.setBoolean("yarn.nodemanager.vmem-check-enabled", false);
        // Containers are handed out at the NodeManager's heartbeats: every 100 ms, not a site's 1 s, so
        // each AM and executor a test asks for does not wait up to a second more.
        conf.setLong("yarn.resourcemanager.nodemanagers.heartbeat-interval-ms", 100);
        conf.set("hadoop.tmp.dir", Path.of("hadoop-tmp").toAbsolutePath().toString());
        return conf;
    }
}

package io.sparkdcp.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A Spark installation for the submit scripts made from the build's classpath: bin/spark-class
 * and bin/spark-submit run it, and executors get it too. Each binds to its Slurm node's name
 * (a loopback address in {@link SlurmCluster}) when it runs in a Slurm job, else to 127.0.0.1.
 */
public final class SparkStandIn {
    private SparkStandIn() {}

    /** Writes the installation into sparkHome and returns it. */
    public static Path install(Path sparkHome, AppJars jars) throws IOException {
        Path bin = Files.createDirectories(sparkHome.resolve("bin"));
        Files.createDirectories(sparkHome.resolve("jars"));
        String java = StandaloneCluster.javaBin();
        String localIp = "export SPARK_LOCAL_IP=${SLURMD_NODENAME:-127.0.0.1}";
        Commands.executable(bin.resolve("spark-class"), String.join("\n", localIp, "export SPARK_SCALA_VERSION=2.13",
                "exec " + java + " -Xmx512m " + ChildJvm.flags() + " -cp '" + jars.classpath() + "' \"$@\""));
        Commands.executable(bin.resolve("spark-submit"), String.join("\n", localIp,
                "exec " + java + " -Xmx1g " + ChildJvm.flags() + " " + String.join(" ", AppJars.moduleFlags()) + " -cp '" + jars.classpath()
                        + "' org.apache.spark.deploy.SparkSubmit --conf 'spark.executor.extraClassPath=" + jars.classpath() + "'"
                        + " --conf 'spark.executor.defaultJavaOptions=" + ChildJvm.flags() + "' \"$@\""));
        return sparkHome;
    }

}

package io.sparkdcp.testing;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * target/spark-dcp-app.jar and the classpath of Spark, built by the launcher: Surefire runs
 * before {@code package}, and the launcher's build (maven.test.skip) leaves test classes alone.
 *
 * @param classpath every runtime jar, Spark included (target/classpath.txt)
 */
public record AppJars(Path appJar, String classpath) {
    /** Surefire's working directory is the project. */
    public static final Path PROJECT = Path.of("").toAbsolutePath();

    public static AppJars fromLauncherBuild() throws Exception {
        Process build = new ProcessBuilder(PROJECT.resolve("submit-scripts/spark-dcp").toString(), "--version")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        boolean finished = build.waitFor(5, TimeUnit.MINUTES);
        if (!finished) build.destroyForcibly().waitFor();
        if (!finished || build.exitValue() != 0) throw new IllegalStateException("the launcher's build failed; see target/launcher-build.log");
        return new AppJars(PROJECT.resolve("target/spark-dcp-app.jar"), Files.readString(PROJECT.resolve("target/classpath.txt")).strip());
    }

    /** Spark's module flags as Surefire gave them to this JVM (the pom's spark.module.flags), for child JVMs. */
    public static List<String> moduleFlags() {
        return ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(arg -> arg.startsWith("--add-opens=") || arg.startsWith("-Djdk.reflect.") || arg.startsWith("-Dio.netty."))
                .toList();
    }
}

package io.sparkdcp.api;

import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.ReadableClasspath;
import io.sparkdcp.testing.RichTree;
import io.sparkdcp.testing.TreeComparator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Java API driven from jshell, the JDK's REPL, as a notebook's Java kernel drives it: the
 * notebook owns the SparkContext, copies a tree, prints the result, and keeps using the context.
 */
class NotebookJshellTest {
    private static final long TIMEOUT_SECONDS = 120;

    @TempDir
    Path tmp;

    @Test
    void aJshellSessionCopiesATreeAndPrintsTheReport() throws Exception {
        LoopMount.requireRootAndXfs();
        try (LoopMount mount = LoopMount.create("jshell", 1024)) {
            RichTree tree = RichTree.build(Files.createDirectory(mount.dir().resolve("src")));
            Path dst = mount.dir().resolve("dst");
            Path script = Files.writeString(tmp.resolve("notebook.jsh"), String.join("\n",
                    "import io.sparkdcp.api.*;",
                    "import org.apache.spark.SparkConf;",
                    "import org.apache.spark.api.java.JavaSparkContext;",
                    "var sc = new JavaSparkContext(new SparkConf().setMaster(\"local[2]\").setAppName(\"notebook\")"
                            + ".set(\"spark.ui.enabled\", \"false\"));",
                    "var request = CopyRequest.builder().batchFiles(5).chunkSize(\"1M\").xattrs(\"all\").build();",
                    "var result = SparkDcp.copy(sc, \"" + tree.root() + "\", \"" + dst + "\", request);",
                    "System.out.print(result);",
                    "System.out.println(\"exit code \" + result.exitCode());",
                    "System.out.println(\"copied in the map \" + result.toMap().get(\"copied\"));",
                    "System.out.println(\"context still usable \" + sc.parallelize(java.util.List.of(1, 2, 3)).count());",
                    "sc.stop();",
                    "/exit", ""));

            Path out = tmp.resolve("out.txt");
            Process jshell = new ProcessBuilder(command(script))
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectErrorStream(true).redirectOutput(out.toFile()).start();
            boolean finished = jshell.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            if (!finished) jshell.destroyForcibly().waitFor();
            String output = Files.readString(out);
            assertTrue(finished, "jshell ran more than " + TIMEOUT_SECONDS + " s:\n" + output);
            assertEquals(0, jshell.exitValue(), output);

            TreeComparator.assertSameTree(tree.root(), dst);
            long copied = tree.entryCount() + 1;
            assertTrue(output.contains("failed: 0"), output);
            assertTrue(output.contains("exit code 0"), output);
            assertTrue(output.contains("copied in the map " + copied), output);
            assertTrue(output.contains("context still usable 3"), output);
        }
    }

    private static List<String> command(Path script) throws Exception {
        String classpath = ReadableClasspath.entries().stream().map(Path::toString).collect(Collectors.joining(":"));
        List<String> command = new ArrayList<>(List.of("jshell", "--class-path", classpath, "-R-Xmx1g"));
        // Spark's module flags, as Surefire gave them to this JVM, for the JVM jshell runs snippets in.
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (arg.startsWith("--add-opens=") || arg.startsWith("-Djdk.reflect.") || arg.startsWith("-Dio.netty.")) command.add("-R" + arg);
        }
        command.add(script.toString());
        return command;
    }
}

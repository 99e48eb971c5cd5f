package io.sparkdcp.api;

import io.sparkdcp.testing.AppJars;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.ReadableClasspath;
import io.sparkdcp.testing.RichTree;
import io.sparkdcp.testing.TimedProcess;
import io.sparkdcp.testing.TreeComparator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
                    "var result = SparkDcp.copy(sc, \"" + tree.root() + "/\", \"" + dst + "\", request);",
                    "System.out.print(result);",
                    "System.out.println(\"exit code \" + result.exitCode());",
                    "System.out.println(\"copied in the map \" + result.toMap().get(\"copied\"));",
                    "System.out.println(\"context still usable \" + sc.parallelize(java.util.List.of(1, 2, 3)).count());",
                    "sc.stop();",
                    "/exit", ""));

            TimedProcess.Finished jshell = TimedProcess.run(new ProcessBuilder(command(script)), tmp.resolve("out.txt"), TIMEOUT_SECONDS);
            String output = jshell.output();
            assertEquals(0, jshell.exitCode(), output);

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
        // Spark's module flags for the JVM jshell runs the snippets in.
        for (String flag : AppJars.moduleFlags()) command.add("-R" + flag);
        command.add(script.toString());
        return command;
    }
}

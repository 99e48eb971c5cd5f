package io.sparkdcp.api;

import io.sparkdcp.testing.AppJars;
import io.sparkdcp.testing.DocBlocks;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.RichTree;
import io.sparkdcp.testing.TimedProcess;
import io.sparkdcp.testing.TreeComparator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Java API driven from jshell, the JDK's REPL, as a notebook's Java kernel drives it, and as
 * docs/api.md shows it: its shell block (the build's classpath, {@code jshell --class-path "$CP"} with
 * Spark's module flags) run as written from the clone, and its Java block pasted in, with a mount's
 * paths for {@code /data}. The notebook owns the SparkContext, copies a tree, prints the result, and
 * copies again on the same context.
 */
class NotebookJshellTest {
    private static final Path API_DOC = AppJars.PROJECT.resolve("docs/api.md");
    private static final long TIMEOUT_SECONDS = 300;

    @TempDir
    Path tmp;

    @Test
    void theApiDocsJshellSessionCopiesTreesWhenPasted() throws Exception {
        LoopMount.requireRootAndXfs();
        AppJars.fromLauncherBuild(); // target/spark-dcp-app.jar and target/classpath.txt, as the doc says
        List<DocBlocks.Block> blocks = DocBlocks.read(API_DOC);
        DocBlocks.Block shell = blocks.stream().filter(b -> "sh".equals(b.language()) && b.text().contains("jshell")).findFirst().orElseThrow();
        DocBlocks.Block java = blocks.stream().filter(b -> "java".equals(b.language())).findFirst().orElseThrow();
        try (LoopMount mount = LoopMount.create("jshell", 1024)) {
            Path data = Files.createDirectory(mount.dir().resolve("data"));
            RichTree tree = RichTree.build(Files.createDirectory(data.resolve("src")));
            Path a = RichTree.build(Files.createDirectory(data.resolve("a"))).root();
            Path b = Files.writeString(Files.createDirectory(data.resolve("b")).resolve("b.txt"), "b\n").getParent();
            Files.createDirectory(data.resolve("logs"));
            Path pasted = Files.writeString(tmp.resolve("pasted.jsh"), java.text().replace("\"/data/", "\"" + data + "/") + "/exit\n");
            Path script = Files.writeString(tmp.resolve("jshell.sh"), shell.text());

            // The block as written (bash, from the clone), reading what is pasted on its standard input.
            ProcessBuilder session = new ProcessBuilder("bash", "-c", "bash \"$0\" < \"$1\"", script.toString(), pasted.toString())
                    .directory(AppJars.PROJECT.toFile());
            session.environment().remove("SPARK_LOCAL_IP"); // the suite's (pom.xml): the doc's own must do
            TimedProcess.Finished jshell = TimedProcess.run(session, tmp.resolve("out.txt"), TIMEOUT_SECONDS);
            String output = jshell.output();
            assertEquals(0, jshell.exitCode(), output);
            for (String wrong : List.of("|  Error", "Exception", "illegal start", "resolves to a loopback address"))
                assertFalse(output.contains(wrong), output);

            TreeComparator.assertSameTree(tree.root(), data.resolve("dst"));
            TreeComparator.assertSameTree(a, data.resolve("dst2/a"));
            TreeComparator.assertSameTree(b, data.resolve("dst2/b"));
            assertTrue(output.contains("\nfailed: 0\n"), output); // System.out.println(result): the summary
            assertTrue(output.contains("copied ==> " + (tree.entryCount() + 1)), output); // result.toMap().get("copied")
            // Each copy's log(...) holds its own entries: the second's did not take the first's place.
            assertTrue(logText(data.resolve("logs/run2")).contains("b.txt"), "no itemized log of the second copy");
            String first = logText(data.resolve("logs/run1"));
            assertTrue(!first.isEmpty() && !first.contains("b.txt"), first);
        }
    }

    /** The lines of an item log's parts, as {@code cat DIR/part-*} shows them. */
    private static String logText(Path dir) throws IOException {
        StringBuilder text = new StringBuilder();
        try (Stream<Path> parts = Files.list(dir)) {
            for (Path part : parts.filter(p -> p.getFileName().toString().startsWith("part-")).sorted().toList())
                text.append(Files.readString(part));
        }
        return text.toString();
    }
}

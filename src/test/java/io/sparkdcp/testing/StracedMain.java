package io.sparkdcp.testing;

import io.sparkdcp.cli.Main;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The CLI in a JVM of its own under {@code strace -ff -y}: every thread's calls, with the paths behind each fd. */
public final class StracedMain {
    private StracedMain() {}

    /** The calls of {@code spark-dcp args...}, which must exit 0; the traces are kept in a new directory under {@code scratch}. */
    public static List<String> calls(Path scratch, String... args) throws Exception {
        Path traces = Files.createDirectory(scratch.resolve("trace-" + System.nanoTime()));
        List<String> command = new ArrayList<>(List.of("strace", "-ff", "-qq", "-y", "-o", traces.resolve("t").toString(),
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", System.getProperty("java.class.path"),
                Main.class.getName()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        String run = String.join(" ", args);
        assertTrue(p.waitFor(4, TimeUnit.MINUTES), run + " under strace timed out");
        assertEquals(0, p.exitValue(), run + " under strace failed");
        List<String> lines = new ArrayList<>();
        for (Path trace : TreeFiles.regularFiles(traces)) lines.addAll(Files.readAllLines(trace));
        return lines;
    }
}

package io.sparkdcp.testing;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Runs a child process (a JVM, a script) with a time limit: stdin from /dev/null, stdout and
 * stderr together into a file (nothing to drain), and on timeout the process and everything it
 * started killed, and the test failed with what it printed.
 */
public final class TimedProcess {
    private TimedProcess() {}

    public record Finished(int exitCode, String output) {}

    public static Finished run(ProcessBuilder builder, Path outputFile, long timeoutSeconds) throws IOException, InterruptedException {
        Process process = builder.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectErrorStream(true).redirectOutput(outputFile.toFile()).start();
        boolean finished = process.waitFor(timeoutSeconds, TimeUnit.SECONDS);
        if (!finished) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly().waitFor();
        }
        String output = Files.readString(outputFile);
        if (!finished) throw new AssertionError(builder.command().get(0) + " ran more than " + timeoutSeconds + " s:\n" + output);
        return new Finished(process.exitValue(), output);
    }
}

package io.sparkdcp.bench;

import java.io.IOException;
import java.util.List;

/** Runs a helper program (cp, rsync, rm, fusermount) with its output discarded and returns its exit code. */
final class Processes {
    private Processes() {}

    static int run(List<String> argv) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        return p.waitFor();
    }

    static void runOrThrow(List<String> argv) throws IOException, InterruptedException {
        int exit = run(argv);
        if (exit != 0) throw new IOException(String.join(" ", argv) + " exited with " + exit);
    }
}

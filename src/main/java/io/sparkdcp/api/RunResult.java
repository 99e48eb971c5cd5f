package io.sparkdcp.api;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;

/** What a copy, sync or compare hands the CLI: its summary ({@code toString}), problem lines, JSON report and exit code. */
public interface RunResult {
    int exitCode();

    void printProblems(PrintWriter err);

    void writeJson(Path file) throws IOException;
}

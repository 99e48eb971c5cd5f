package io.sparkdcp.api;

import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.report.JsonFile;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;

/** What a copy, sync or compare hands the CLI: its summary ({@code toString}), problem lines, JSON report and exit code. */
public interface RunResult {
    int exitCode();

    void printProblems(PrintWriter err);

    /** The entries that failed alone, as {@link #printProblems} words them: what {@code --quiet} still prints. */
    void printFailures(PrintWriter err);

    /**
     * The summary ({@code toString}), with the step table ({@code -v}) and rsync's closing summary
     * ({@code --stats}) where the run has them.
     */
    default String summary(boolean steps, boolean stats) {
        return toString();
    }

    /** The --report fields as JSON. */
    String toJson();

    /** The JSON report written to {@code file} atomically (a temporary file, then a rename); its directory must exist. */
    default void writeJson(Path file) throws IOException {
        writeJson(PathBytes.of(file.toAbsolutePath().toString()));
    }

    /** The same for a file named by bytes (a name that is not UTF-8, as a command line gives it). */
    default void writeJson(byte[] file) throws IOException {
        JsonFile.write(file, toJson());
    }
}

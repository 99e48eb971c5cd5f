package io.sparkdcp.api;

import io.sparkdcp.posix.Failure;

import java.io.PrintWriter;
import java.util.List;

/** Failed or skipped entries on stderr (the CLI's, or a notebook's), one line each, capped so a bad run does not flood the terminal. */
final class ProblemLines {
    static final int MAX_LISTED = 50;

    private ProblemLines() {}

    /**
     * @param kind  "failed" or "skipped"
     * @param total how many there were: more than {@code listed} when the counts stopped keeping them
     */
    static void print(PrintWriter err, String kind, List<Failure> listed, long total) {
        int shown = (int) Math.min(listed.size(), MAX_LISTED);
        for (Failure f : listed.subList(0, shown)) err.println("spark-dcp: " + kind + ": " + describe(f));
        if (total > shown) {
            err.printf("spark-dcp: %s: %,d more not listed here (the JSON report of --report FILE lists them)%n",
                    kind, total - shown);
        }
        err.flush();
    }

    static String describe(Failure f) {
        return f.path() + ": " + f.op() + (f.errno().isEmpty() ? "" : " " + f.errno()) + ": " + f.message();
    }
}

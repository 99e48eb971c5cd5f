package io.sparkdcp.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkdcp.copy.compare.Difference;
import io.sparkdcp.report.CompareJson;
import io.sparkdcp.report.CompareReport;
import io.sparkdcp.report.CompareText;

import java.io.PrintWriter;
import java.util.List;
import java.util.Map;

/**
 * What a comparison found. Prints as the CLI's summary; {@link #differenceLines()} are the lines the
 * CLI prints on stderr; {@link #toJson()} and {@link #toMap()} give its {@code --report} fields.
 */
public record CompareResult(CompareReport report) implements RunResult {
    /** 0: identical; 1: differences found; 2: some entries could not be compared (diff's convention). */
    @Override
    public int exitCode() {
        return report.exitCode();
    }

    public boolean identical() {
        return exitCode() == CompareReport.IDENTICAL;
    }

    /** Every difference, one line each: {@code PATH: kind: SRC != DST}, sorted by path. */
    public List<String> differenceLines() {
        return report.differences().stream().map(Difference::describe).toList();
    }

    /**
     * The differences (at most 50, then a count) and the entries that could not be compared, on err:
     * {@code spark-dcp: differs: PATH: kind: SRC != DST}, {@code spark-dcp: failed: PATH: call ERRNO: message}.
     */
    @Override
    public void printProblems(PrintWriter err) {
        ProblemLines.printLines(err, "differs", differenceLines());
        printFailures(err);
    }

    @Override
    public void printFailures(PrintWriter err) {
        ProblemLines.print(err, "failed", report.failures(), report.failures().size());
    }

    public String toJson() {
        return CompareJson.render(report);
    }

    @SuppressWarnings("unchecked")
    public Map<String, Object> toMap() {
        return new ObjectMapper().convertValue(CompareJson.toJson(report), Map.class);
    }

    @Override
    public String toString() {
        return CompareText.render(report);
    }
}

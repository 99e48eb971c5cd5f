package io.sparkdcp.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.report.ReportJson;
import io.sparkdcp.report.ReportText;

import java.io.PrintWriter;
import java.util.List;
import java.util.Map;

/**
 * What a copy did. Prints as the CLI's summary table; {@link #toJson()} and {@link #toMap()} give
 * the fields of the CLI's {@code --report} file, by the same names.
 */
public record CopyResult(CopyReport report) implements RunResult {
    /** 0: everything copied or already identical; 1: some entries failed (the rest was copied). */
    @Override
    public int exitCode() {
        return report.exitCode();
    }

    public boolean succeeded() {
        return exitCode() == 0;
    }

    public List<Failure> failures() {
        return report.counts().failures();
    }

    public String toJson() {
        return ReportJson.render(report);
    }

    /** The JSON report as nested maps and lists (what PySpark receives as a dict-like object). */
    @SuppressWarnings("unchecked")
    public Map<String, Object> toMap() {
        // A mapper of its own, not a static one: every copy makes a CopyResult, and Jackson's start-up
        // (some hundred classes) is paid only by a caller who asks for a map.
        return new ObjectMapper().convertValue(ReportJson.toJson(report), Map.class);
    }

    /** Entries skipped for a reason, then failed entries: one {@code spark-dcp: } line each, at most 50 of each kind. */
    @Override
    public void printProblems(PrintWriter err) {
        ProblemLines.print(err, "skipped", report.counts().notices(), report.counts().notices().size());
        printFailures(err);
    }

    @Override
    public void printFailures(PrintWriter err) {
        ProblemLines.print(err, "failed", report.counts().failures(), report.counts().failed());
    }

    /** The summary table, without the step table. */
    @Override
    public String toString() {
        return ReportText.render(report);
    }

    @Override
    public String summary(boolean steps, boolean stats) {
        return ReportText.render(report, new ReportText.Detail(steps, stats));
    }
}

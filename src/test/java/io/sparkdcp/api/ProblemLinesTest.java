package io.sparkdcp.api;

import io.sparkdcp.posix.Failure;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

@Tag("fast")
class ProblemLinesTest {
    private static List<String> print(List<Failure> failures, long total) {
        StringWriter text = new StringWriter();
        ProblemLines.print(new PrintWriter(text), "failed", failures, total);
        return text.toString().lines().toList();
    }

    @Test
    void eachFailureIsOneLineWithPathCallErrnoAndMessage() {
        List<String> lines = print(List.of(new Failure("d/f", "openat", "EACCES", "Permission denied"),
                new Failure("d/g", "copy chunks", "", "a chunk failed")), 2);
        assertEquals(List.of("spark-dcp: failed: d/f: openat EACCES: Permission denied",
                "spark-dcp: failed: d/g: copy chunks: a chunk failed"), lines);
    }

    @Test
    void moreThanFiftyEndWithACountOfTheRest() {
        List<Failure> failures = new ArrayList<>();
        for (int i = 0; i < 60; i++) failures.add(new Failure("f" + i, "openat", "EIO", "Input/output error"));
        List<String> lines = print(failures, 1_060);
        assertEquals(51, lines.size());
        assertEquals("spark-dcp: failed: f49: openat EIO: Input/output error", lines.get(49));
        assertEquals("spark-dcp: failed: 1,010 more not listed here (the JSON report of --report FILE lists them)", lines.get(50));
    }

    @Test
    void nothingToListPrintsNothing() {
        assertEquals(List.of(), print(List.of(), 0));
    }
}

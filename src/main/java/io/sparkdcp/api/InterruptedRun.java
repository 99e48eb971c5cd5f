package io.sparkdcp.api;

import io.sparkdcp.report.ReportJson;

import java.io.IOException;
import java.nio.file.Path;

/** A run that a signal ended: what its {@code --report} file says. */
public final class InterruptedRun {
    private InterruptedRun() {}

    /** {@code "interrupted": true}, the signal and the exit code, without counts; written whole (a temporary, then a rename). */
    public static void writeReport(String signal, int exitCode, byte[] file) throws IOException {
        ReportJson.writeInterrupted(signal, exitCode, file);
    }

    /**
     * What the file says from the start of a run until its own report replaces it: {@code "interrupted": true}, no
     * signal, no exit code. A script that reads it after a kill, a crash or a signal never finds an older run's report.
     */
    public static void writeUnfinished(byte[] file) throws IOException {
        ReportJson.writeUnfinished(file);
    }
}

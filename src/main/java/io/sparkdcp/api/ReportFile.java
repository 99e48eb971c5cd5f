package io.sparkdcp.api;

import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.PosixException;
import io.sparkdcp.posix.SmallFiles;
import io.sparkdcp.posix.Stat;

/** The file {@code --report} names (bytes: any name), checked before anything runs rather than after hours of copying. */
public final class ReportFile {
    private ReportFile() {}

    /** Refuses, with an IllegalArgumentException naming it, a report that could not be written where it is named. */
    public static void check(byte[] file) {
        String shown = PathBytes.display(file);
        byte[] dir = SmallFiles.directoryOf(file);
        try {
            Stat target = Posix.statIfExists(file, true);
            if (target != null && target.type() == FileType.DIRECTORY) throw new IllegalArgumentException("report " + shown + " is a directory");
            Stat parent = Posix.statIfExists(dir, true);
            if (parent == null || parent.type() != FileType.DIRECTORY)
                throw new IllegalArgumentException("report directory " + PathBytes.display(dir) + " does not exist");
            SmallFiles.probe(file);
        } catch (PosixException e) {
            throw new IllegalArgumentException("report " + shown + " cannot be written: " + e.reason());
        }
    }
}

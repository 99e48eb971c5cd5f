package io.sparkdcp.report;

import io.sparkdcp.copy.CopyCounts;
import io.sparkdcp.copy.CopyModes;
import io.sparkdcp.copy.Failure;
import io.sparkdcp.copy.Step;
import io.sparkdcp.copy.StepStats;
import io.sparkdcp.posix.FileType;

/** A report with a bit of everything, for the renderers' tests. */
final class SampleReports {
    private SampleReports() {}

    static CopyReport mixed() {
        CopyCounts counts = new CopyCounts();
        counts.addCopied(FileType.FILE);
        counts.addCopied(FileType.FILE);
        counts.addCopied(FileType.DIRECTORY);
        counts.addCopied(FileType.CHAR_DEVICE);
        counts.addSkipped(FileType.SYMLINK);
        counts.addSkipped(FileType.SOCKET, new Failure("s", "mknodat", "", "sockets are not copied"));
        counts.addLink();
        counts.addBytes(3_000_000);
        counts.addFailure(new Failure("d/f", "openat", "EACCES", "Permission denied"));
        StepStats steps = new StepStats();
        for (int i = 0; i < 3; i++) steps.record(Step.OPEN_SRC, 1_000_000);
        steps.record(Step.DATA, 1_000_000);
        return new CopyReport("/src", "/dst", "non-lustre", "fd", true, counts, steps, 8, 3_000_000,
                2_000_000_000L, true, CopyModes.COPY, "driver", null);
    }
}

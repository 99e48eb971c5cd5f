package io.sparkdcp.report;

import io.sparkdcp.api.CopyRequest;
import io.sparkdcp.copy.CopyCounts;
import io.sparkdcp.copy.options.CopyModes;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.copy.steps.Step;
import io.sparkdcp.copy.steps.StepStats;
import io.sparkdcp.copy.throttle.Throttle;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Stat;
import io.sparkdcp.walk.Entry;

/** A report with a bit of everything, for the renderers' tests. */
final class SampleReports {
    private SampleReports() {}

    static CopyReport mixed() {
        return mixed(Throttle.NONE);
    }

    /** The same report, of a copy run with these limits. */
    static CopyReport mixed(Throttle throttle) {
        CopyCounts counts = new CopyCounts();
        counts.addCopied(entry("f1", FileType.FILE));
        counts.addCopied(entry("f2", FileType.FILE));
        counts.addCopied(entry("d", FileType.DIRECTORY));
        counts.addCopied(entry("c", FileType.CHAR_DEVICE));
        counts.addSkipped(entry("l", FileType.SYMLINK));
        counts.addSkipped(entry("s", FileType.SOCKET), new Failure("s", "mknodat", "", "sockets are not copied"));
        counts.addLink(entry("f3", FileType.FILE));
        counts.addBytes(3_000_000);
        counts.addFailure(new Failure("d/f", "openat", "EACCES", "Permission denied"));
        StepStats steps = new StepStats();
        for (int i = 0; i < 3; i++) steps.record(Step.OPEN_SRC, 1_000_000);
        steps.record(Step.DATA, 1_000_000);
        CopyOptions settings = CopyOptions.between(PathBytes.of("/src"), PathBytes.of("/dst"), CopyRequest.defaults().keep(),
                CopyModes.COPY, 256L << 20)
                .withThrottle(throttle);
        return new CopyReport("/src", "/dst", settings, new ListedSource(8, 3_000_000, true, "driver", null), counts, steps,
                2_000_000_000L);
    }

    /** A re-run that found everything in place: three entries skipped, nothing made. */
    static CopyReport identical() {
        CopyCounts counts = new CopyCounts();
        counts.addSkipped(entry("f1", FileType.FILE));
        counts.addSkipped(entry("f2", FileType.FILE));
        counts.addSkipped(entry("d", FileType.DIRECTORY));
        StepStats steps = new StepStats();
        steps.record(Step.OPEN_SRC, 1_000_000);
        CopyOptions settings = CopyOptions.between(PathBytes.of("/src"), PathBytes.of("/dst"), CopyRequest.defaults().keep(),
                CopyModes.COPY, 256L << 20);
        return new CopyReport("/src", "/dst", settings, new ListedSource(3, 2_048, true, "driver", null), counts, steps,
                1_000_000_000L);
    }

    private static Entry entry(String path, FileType type) {
        return new Entry(PathBytes.of(path), Stat.of(type).permissions(0644).nlink(1).build(), null);
    }
}

package io.sparkdcp.testing;

import io.sparkdcp.copy.MetadataAccess;
import io.sparkdcp.report.CopyReport;

import java.nio.file.Path;

/** A copy in a JVM of its own, for tests that watch a whole process (strace). Args: SRC DST fd|path. */
public final class CopyTreeMain {
    private CopyTreeMain() {}

    public static void main(String[] args) {
        LocalCopy how = LocalCopy.defaults().withAccess(MetadataAccess.parse(args[2]));
        CopyReport report = how.run(Path.of(args[0]), Path.of(args[1]));
        System.exit(report.exitCode());
    }
}

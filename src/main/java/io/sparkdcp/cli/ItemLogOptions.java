package io.sparkdcp.cli;

import io.sparkdcp.api.CopyRequest;
import picocli.CommandLine.Option;

/** The itemized log, shared by copy, sync and compare. */
final class ItemLogOptions {
    @Option(names = "--log", paramLabel = "DIR",
            description = "Log each entry acted on, one line each (copied, linked, fixed with the kinds set, kept_newer, deleted, failed; "
                    + "compare: each difference), in part files the tasks write in DIR (a local directory, or a Hadoop path such as "
                    + "hdfs://HOST/DIR; new, empty, or an earlier log, which is replaced). The dry runs log what the run would do.")
    String dir;

    @Option(names = "--log-skipped", description = "With --log, also log the entries left as they were (skipped).")
    boolean skipped;

    CopyRequest.Builder applyTo(CopyRequest.Builder request) {
        if (dir != null) request.log(OptionValue.hadoopPath("--log", dir));
        return request.logSkipped(skipped);
    }
}

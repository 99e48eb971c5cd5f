package io.sparkdcp.cli;

import io.sparkdcp.api.CopyRequest;
import picocli.CommandLine.Option;

/** How carefully files are written, shared by copy and sync: each option turns on the write mode of its name. */
final class WriteOptions {
    @Option(names = "--atomic", description = "Accepted for scripts; always so: every file gets its name only when its "
            + "data and metadata are complete (unnamed, or a temporary renamed into place); the next run removes "
            + "temporaries a killed run left.")
    boolean atomic;

    @Option(names = "--verify", description = "After writing each file, re-read the source and the copy and compare "
            + "CRC32C checksums; a mismatch fails the file and removes the copy.")
    boolean verify;

    @Option(names = "--fsync", description = "Make each file's data durable (fsync) before its times are set.")
    boolean fsync;

    CopyRequest.Builder applyTo(CopyRequest.Builder request) {
        return request.mode("atomic", atomic).mode("verify", verify).mode("fsync", fsync);
    }
}

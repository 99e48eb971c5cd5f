package io.sparkdcp.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The job's rate limits, for commands that write (copy, sync, bench): they go to the engine options' request.
 * A public mixin for the bench's command ({@link ModuleCommand}).
 */
public final class ThrottleOptions {
    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    @Option(names = "--max-ops", paramLabel = "N",
            description = "At most N metadata calls (open, stat, xattr, ioctl, chown, chmod, utimens, mkdir, unlink...) "
                    + "per second for the whole job, shared by its running tasks. Default: no limit.")
    void maxOps(long n) { EngineOptions.of(command).set("--max-ops", String.valueOf(n), r -> r.maxOps(n)); }

    @Option(names = "--bwlimit", paramLabel = "SIZE",
            description = "At most SIZE bytes of file data per second for the whole job (K, M, G, T: binary units, "
                    + "so 200M is 200.0 MiB/s), shared by its running tasks. Default: no limit.")
    void bwlimit(String size) { EngineOptions.of(command).set("--bwlimit", size, r -> r.bwlimit(size)); }
}

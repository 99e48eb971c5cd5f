package io.sparkdcp.cli;

import io.sparkdcp.api.CopyRequest;
import io.sparkdcp.api.CopyResult;
import io.sparkdcp.api.DryRun;
import io.sparkdcp.api.PreparedCopy;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code spark-dcp sync SRC... DST} (sources as for copy): the copy command's options and checks, plus the sync rules —
 * data already right is kept and only differing metadata is fixed, {@code --delete} removes what
 * SRC lacks (never after a walk error), {@code --dry-run} prints the plan and writes nothing.
 */
@Command(name = "sync", versionProvider = VersionProvider.class, sortOptions = false,
        description = {"Make what each SRC maps to in DST identical to SRC, keeping all metadata (SRC/: DST itself; "
                + "SRC, a directory, file or symlink: DST/SRC's name, or DST itself for one file when DST is not a "
                + "directory, as rsync maps them). New files and files whose size or mtime "
                + "differ are copied; entries whose data is already right only get the owner, mode, times, xattrs "
                + "and project ID that differ. DST is created if missing, but not its parent (unless --mkpath).",
                "rsync's habits work: -n, -q, -v, -h (sizes in KiB, MiB...; help is --help), --stats, --info=progress2, "
                        + "and -a, -r (accepted: every piece of metadata is always kept, and directories always synced whole)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:DST is identical to SRC",
                "1:some entries failed, or deletion was refused after an error listing SRC (listed on stderr and in "
                        + "the report). Also when the run itself stopped, or the report could not be written",
                "2:usage error or impossible request; nothing was written",
                "3:the driver ran out of memory; the run stopped at once (run it again with more to resume)",
                "20:interrupted by SIGTERM, SIGINT or SIGHUP; the run stopped at once (run it again to resume)"},
        footerHeading = "%nExamples:%n",
        footer = {"  spark-dcp sync --delete --dry-run /data/src/ /data/dst",
                "      Show what a sync would copy, fix and delete, and change nothing.",
                "  spark-dcp sync --delete /data/src/ /data/dst",
                "      Make dst identical to src's contents, removing what src does not have.",
                "  spark-dcp sync --delete --state /data/dcp-state /data/src/ /data/dst",
                "      The same; its ledger spares the next pass opening what did not change."})
final class SyncCommand extends CopyCommand {
    @Option(names = "--delete", description = "Remove the entries SRC does not have, only inside what SRC maps to "
            + "(DST for SRC/, DST/name for SRC; nothing for a file), as rsync does. Refused (nothing deleted, exit 1) when any part of SRC "
            + "could not be listed.")
    boolean delete;

    @Option(names = "--delete-excluded", description = "With --delete (which it implies), also remove the entries of DST "
            + "that --exclude, --include, --include-from, --exclude-from or --files-from leave out (by default they stay, as with rsync).")
    boolean deleteExcluded;

    @Override
    CopyRequest.Builder withModes(CopyRequest.Builder request) {
        return request.sync(true).deleteExcluded(deleteExcluded);
    }

    @Override
    SparkContexts.Job onSpark(PreparedCopy copy) {
        return SparkContexts.sync(copy, deletes());
    }

    @Override
    CopyResult runInProcess(PreparedCopy copy) {
        return copy.runSyncInProcess(deletes());
    }

    @Override
    DryRun dryRun(PreparedCopy copy) {
        return copy.dryRun(deletes());
    }

    /** --delete-excluded implies --delete, as in rsync. */
    @Override
    boolean deletes() {
        return delete || deleteExcluded;
    }
}

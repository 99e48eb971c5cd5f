package io.sparkdcp.testing;

import io.sparkdcp.copy.CopyModes;
import io.sparkdcp.copy.MetadataAccess;
import io.sparkdcp.report.CopyReport;

import java.nio.file.Path;
import java.util.List;

/**
 * A copy in a JVM of its own, for tests that watch or kill a whole process (strace, SIGKILL, another
 * user). Args: SRC DST fd|path|fd-always-set [fsync] [atomic] [sync] [delete]: fsync writes durably (and slower),
 * atomic renames finished files into place, sync runs a sync job, delete makes it delete what SRC lacks.
 */
public final class CopyTreeMain {
    private CopyTreeMain() {}

    public static void main(String[] args) {
        List<String> words = List.of(args).subList(3, args.length);
        boolean sync = words.contains("sync");
        LocalCopy how = LocalCopy.defaults().withAccess(access(args[2]))
                .withModes(new CopyModes(sync, false, words.contains("atomic"), false, words.contains("fsync")));
        Path src = Path.of(args[0]);
        Path dst = Path.of(args[1]);
        CopyReport report = sync ? how.sync(src, dst, words.contains("delete")) : how.run(src, dst);
        System.out.println("failed " + report.counts().failed()); // for tests that read the outcome
        report.counts().failures().forEach(System.out::println);
        System.exit(report.exitCode());
    }

    /** The user's words, and the bench's fd-always-set. */
    private static MetadataAccess access(String word) {
        return word.equals("fd-always-set") ? MetadataAccess.FD_ALWAYS_SET : MetadataAccess.parse(word);
    }
}

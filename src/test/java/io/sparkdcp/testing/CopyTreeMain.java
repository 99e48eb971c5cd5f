package io.sparkdcp.testing;

import io.sparkdcp.copy.keep.LustreLayout;
import io.sparkdcp.copy.keep.MetadataAccess;
import io.sparkdcp.copy.options.CopyModes;
import io.sparkdcp.job.exec.LocalPhaseRunner;
import io.sparkdcp.job.exec.PhaseRunner;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.report.ReportJson;
import io.sparkdcp.roots.UsageException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

/**
 * A copy in a JVM of its own, for tests that watch or kill a whole process (strace, SIGKILL, another
 * user). Args: SRC DST fd|path|fd-always-set (path: the bench's, with its jar) [fsync] [atomic] [update] [sync] [delete] [pause] [report=FILE] [chunk=BYTES]
 * [layout=inherit|keep|exact]: fsync writes durably (and slower), atomic is accepted as --atomic is, update keeps files
 * newer at DST, chunk copies files above BYTES in chunks, sync runs a sync job, delete makes it
 * delete what SRC lacks, pause prints "paused" before the files are copied and waits for a line on stdin,
 * report writes the JSON report. A usage error (DST held by another run, say) exits 2 with one line.
 */
public final class CopyTreeMain {
    private CopyTreeMain() {}

    public static void main(String[] args) {
        List<String> words = List.of(args).subList(3, args.length);
        boolean sync = words.contains("sync");
        LocalCopy how = LocalCopy.defaults().withAccess(access(args[2]))
                .withModes(CopyModes.COPY.with(CopyModes.Mode.SYNC, sync).with(CopyModes.Mode.ATOMIC, words.contains("atomic")).with(CopyModes.Mode.FSYNC, words.contains("fsync")).with(CopyModes.Mode.UPDATE, words.contains("update")));
        for (String w : words) {
            if (w.startsWith("layout=")) how = how.withLustreLayout(LustreLayout.parse(w.substring("layout=".length())));
            if (w.startsWith("chunk=")) how = how.withChunkSize(Long.parseLong(w.substring("chunk=".length())));
        }
        Path src = Path.of(args[0]);
        Path dst = Path.of(args[1]);
        PhaseRunner runner = new LocalPhaseRunner(3);
        if (words.contains("pause")) runner = new SwappingPhaseRunner(runner, "copy files", CopyTreeMain::pause);
        CopyReport report;
        try {
            report = sync ? how.sync(src, dst, words.contains("delete"), runner) : how.run(src, dst, runner);
        } catch (UsageException e) {
            System.err.println("spark-dcp: " + e.getMessage());
            System.exit(2);
            return;
        }
        for (String w : words) if (w.startsWith("report=")) write(report, Path.of(w.substring("report=".length())));
        System.out.println("failed " + report.counts().failed()); // for tests that read the outcome
        report.counts().failures().forEach(System.out::println);
        System.exit(report.exitCode());
    }

    private static void pause() {
        System.out.println("paused");
        System.out.flush();
        try {
            System.in.read();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void write(CopyReport report, Path file) {
        try {
            ReportJson.write(report, file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The user's words, and the bench's path (its jar on the class path) and fd-always-set. */
    private static MetadataAccess access(String word) {
        return switch (word) {
            case "fd-always-set" -> MetadataAccess.FD_ALWAYS_SET;
            case "path" -> MetadataAccess.PATH;
            default -> MetadataAccess.parse(word);
        };
    }
}

package io.sparkdcp.cli;

import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.StracedMain;
import io.sparkdcp.testing.TreeFiles;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Counts, under strace, the calls a no-change sync makes on the two trees with a state ledger: no unchanged
 * regular file is opened, and each unchanged entry costs at most two calls beyond the walk's statx and getdents64.
 */
class StateLedgerSyscallTest {
    private static final int DIRECTORIES = 4;
    private static final int FILES_PER_DIRECTORY = 50;
    private static LoopMount mount;
    private static Path src, dst, state;

    @BeforeAll
    static void tree() throws IOException {
        LoopMount.requireRootAndXfs();
        Commands.requireTool("strace", "strace");
        mount = LoopMount.create("ledgercalls", 300);
        src = Files.createDirectory(mount.dir().resolve("src"));
        dst = mount.dir().resolve("dst");
        state = mount.dir().resolve("state");
        for (int d = 0; d < DIRECTORIES; d++) {
            Path dir = Files.createDirectory(src.resolve("dir-" + d));
            for (int f = 0; f < FILES_PER_DIRECTORY; f++) Files.writeString(dir.resolve(String.format("file-%03d", f)), "data " + d + "/" + f);
        }
        Commands.run("setfattr", "-n", "user.k", "-v", "v", src.resolve("dir-0/file-000").toString());
    }

    @AfterAll
    static void unmount() {
        if (mount != null) mount.close();
    }

    private static long entries() {
        return 1 + DIRECTORIES + (long) DIRECTORIES * FILES_PER_DIRECTORY;
    }

    @Test
    void aNoChangeSyncWithALedgerOpensNoUnchangedFileAndCostsAtMostTwoCallsAnEntry() throws Exception {
        assertEquals(0, CommandLineRun.of("sync", "--state", state.toString(), src + "/", dst.toString()).exitCode());
        List<String> with = treeCalls(traced("sync", "--state", state.toString(), src + "/", dst.toString()));
        List<String> opens = with.stream().filter(c -> c.startsWith("open") && c.contains("file-")).toList();
        assertEquals(List.of(), opens, "no unchanged regular file is opened");
        long beyondWalk = with.stream().filter(c -> !walkCall(c)).count();
        double perEntry = (double) beyondWalk / entries();
        assertTrue(perEntry <= 2, perEntry + " calls an entry beyond the walk: " + with.stream().filter(c -> !walkCall(c)).limit(60).toList());

        List<String> without = treeCalls(traced("sync", src + "/", dst.toString()));
        double withoutPerEntry = (double) without.size() / entries();
        double withPerEntry = (double) with.size() / entries();
        // Measured 2026-12-02: 2.4 a entry with the ledger (1.3 beyond the walk), 11.6 without.
        assertTrue(withPerEntry < withoutPerEntry, withPerEntry + " with the ledger, " + withoutPerEntry + " without");
    }

    @Test
    void aSyncRightAfterACopyUsesItsLedgerAndOpensNoUnchangedFile() throws Exception {
        Path copied = mount.dir().resolve("copied"), copyState = mount.dir().resolve("copy-state");
        assertEquals(0, CommandLineRun.of("copy", "--state", copyState.toString(), src + "/", copied.toString()).exitCode());
        List<String> sync = StracedMain.calls(mount.dir(), "sync", "--state", copyState.toString(), src + "/", copied.toString());
        String root = mount.dir().toString();
        List<String> opens = sync.stream().filter(c -> c.startsWith("open") && c.contains(root + "/copied/") && c.contains("file-")).toList();
        assertEquals(List.of(), opens, "no unchanged regular file is opened");
        long files = sync.stream().filter(c -> c.contains(root + "/copied/") && c.contains("file-")).count();
        assertTrue(files <= (long) DIRECTORIES * FILES_PER_DIRECTORY, files + " calls on DST's files: one statx each at most");
    }

    /** The source walk's own calls: a statx on a source directory's descriptor, and getdents64. */
    private static boolean walkCall(String call) {
        return call.startsWith("getdents64(") || call.startsWith("statx(") && call.matches("statx\\(\\d+<[^>]*/mnt/src[/>].*");
    }

    private static List<String> treeCalls(List<String> lines) {
        String root = mount.dir().toString();
        return lines.stream().filter(l -> l.contains(root + "/src") || l.contains(root + "/dst")).toList();
    }

    private static List<String> traced(String... args) throws Exception {
        return StracedMain.calls(mount.dir(), args);
    }
}

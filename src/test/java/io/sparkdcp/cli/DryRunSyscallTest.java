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
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A {@code sync --delete --dry-run} as a real process under strace, on XFS: it makes no call that could change
 * either tree (no open for writing, no xattr, mode, owner, time, flag or project change, no name made or removed),
 * reads the xattrs and struct fsxattr of the files on both sides, and with {@code --state} opens no file the
 * ledger proves unchanged, as the run does not.
 */
class DryRunSyscallTest {
    private static final int FILES = 40;
    /** Calls that change an inode or a directory, whatever their arguments. */
    private static final Pattern CHANGING = Pattern.compile("^(f?setxattr|lsetxattr|f?removexattr|lremovexattr|fchmod|fchmodat2?|chmod"
            + "|fchown|fchownat|lchown|chown|utimensat|futimesat|unlinkat|unlink|rmdir|renameat2?|rename|mkdirat|mkdir|linkat|link"
            + "|symlinkat|symlink|mknodat|mknod|ftruncate|truncate|fallocate|copy_file_range|pwrite64|write|writev|pwritev2?)\\(");
    private static LoopMount mount;
    private static Path src, dst, state;

    @BeforeAll
    static void tree() throws IOException {
        LoopMount.requireRootAndXfs();
        Commands.requireTool("strace", "strace");
        Commands.requireTool("setfattr", "setfattr (Debian's attr)");
        mount = LoopMount.create("drycalls", LoopMount.MIN_SIZE_MIB);
        src = Files.createDirectory(mount.dir().resolve("src"));
        dst = mount.dir().resolve("dst");
        state = mount.dir().resolve("state");
        Files.createDirectory(src.resolve("dir"));
        for (int f = 0; f < FILES; f++) Files.writeString(src.resolve(String.format("dir/file-%03d", f)), "data " + f);
    }

    @AfterAll
    static void unmount() {
        if (mount != null) mount.close();
    }

    @Test
    void aDryRunChangesNothingAndOpensWhatTheRunOpens() throws Exception {
        assertEquals(0, CommandLineRun.of("sync", "--state", state.toString(), src + "/", dst.toString()).exitCode());
        Commands.run("setfattr", "-n", "user.k", "-v", "v", src.resolve("dir/file-007").toString());
        Files.writeString(dst.resolve("extra"), "not in SRC");

        List<String> plain = treeCalls(traced("sync", "--delete", "--dry-run", src + "/", dst.toString()));
        assertEquals(List.of(), changing(plain), "calls that could change a tree");
        assertTrue(plain.stream().anyMatch(c -> c.startsWith("flistxattr(") && c.contains("/mnt/dst/dir/file-")), "DST's xattrs are read");
        assertTrue(plain.stream().anyMatch(c -> c.startsWith("ioctl(") && c.contains("/mnt/src/dir/file-")), "SRC's project IDs are read");

        List<String> ledger = treeCalls(traced("sync", "--delete", "--dry-run", "--state", state.toString(), src + "/", dst.toString()));
        assertEquals(List.of(), changing(ledger), "calls that could change a tree, with the ledger");
        List<String> opened = ledger.stream().filter(c -> c.startsWith("open") && c.contains("file-")).map(DryRunSyscallTest::name).distinct().toList();
        assertEquals(List.of("file-007"), opened, "only the file the ledger cannot prove is opened");
    }

    /** The changing calls, and opens that could write or create. */
    private static List<String> changing(List<String> calls) {
        return calls.stream().filter(c -> CHANGING.matcher(c).find()
                || c.startsWith("open") && (c.contains("O_WRONLY") || c.contains("O_RDWR") || c.contains("O_CREAT") || c.contains("O_TRUNC")
                || c.contains("O_TMPFILE"))
                || c.startsWith("ioctl(") && (c.contains("FS_IOC_FSSETXATTR") || c.contains("FS_IOC_SETFLAGS"))).toList();
    }

    private static String name(String call) {
        int at = call.indexOf("file-");
        return call.substring(at, at + "file-000".length());
    }

    private static List<String> treeCalls(List<String> lines) {
        String root = mount.dir().toString();
        return lines.stream().filter(l -> l.contains(root + "/src") || l.contains(root + "/dst")).toList();
    }

    private static List<String> traced(String... args) throws Exception {
        return StracedMain.calls(mount.dir(), args);
    }
}

package io.sparkdcp.job;

import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.Stat;
import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.CopyTreeMain;
import io.sparkdcp.testing.ReadableClasspath;
import io.sparkdcp.testing.LoopMount;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A user copying their own tree: what they may keep is kept, the rest is left as cp -a leaves it. */
class UnprivilegedCopyTest {
    private static final int USER = 1001;
    private static LoopMount mount;
    private static Path src;
    private static Path dst;
    private static int exitCode;

    @BeforeAll
    static void copyAsUser() throws Exception {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.create("unprivileged", 400);
        src = mount.dir().resolve("src");
        dst = mount.dir().resolve("dst");
        Commands.bash("set -e; mkdir -p '" + src + "/proj' '" + dst + "'; cd '" + src + "'"
                + "; echo mine > mine; chmod 640 mine; touch -d '2001-02-03 04:05:06.5' mine"
                + "; echo theirs > theirs; chown 0:0 theirs; chmod 644 theirs"
                + "; mkfifo pipe; mknod null c 1 3; chmod 666 null"
                + "; xfs_io -c 'chproj 55' -c 'chattr +P' proj; echo in > proj/file; xfs_io -c 'chproj 56' proj/file"
                + "; setfattr -n user.note -v hello mine"
                + "; chown -R " + USER + ":" + USER + " . '" + dst + "'; chown 0:0 theirs null");
        String classpath = ReadableClasspath.copyTo(mount.dir().resolve("classpath"));
        Process p = new ProcessBuilder("setpriv", "--reuid=" + USER, "--regid=" + USER, "--clear-groups",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", classpath,
                CopyTreeMain.class.getName(), src.toString(), dst.toString(), "fd")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertTrue(p.waitFor(3, TimeUnit.MINUTES), "copy as user timed out");
        exitCode = p.exitValue();
    }

    @AfterAll
    static void unmount() {
        if (mount != null) mount.close();
    }

    @Test
    void succeedsWithDevicesSkippedNotFailed() {
        assertEquals(0, exitCode, "a device a user cannot create is a reported skip, not a failure");
        assertFalse(Files.exists(dst.resolve("null")));
    }

    @Test
    void keepsModeTimesXattrsAndProjectOfOwnFiles() throws Exception {
        Stat mine = Posix.lstat(PathBytes.of(dst.resolve("mine").toString()));
        assertEquals(0640, mine.permissions());
        assertEquals(981173106L, mine.mtimeSec());
        assertEquals(500_000_000, mine.mtimeNsec());
        assertEquals("hello", Commands.run("getfattr", "--only-values", "-n", "user.note", dst.resolve("mine").toString()));
        try (Fd f = Posix.open(PathBytes.of(dst.resolve("proj/file").toString()), Linux.O_RDONLY)) {
            assertEquals(56, Posix.getFsXattr(f).projid(), "an owner may set the project ID of their file");
        }
        assertTrue(Files.exists(dst.resolve("pipe")), "FIFOs need no privilege");
    }

    @Test
    void filesOfOthersBecomeTheUsersOwn() throws Exception {
        Stat theirs = Posix.lstat(PathBytes.of(dst.resolve("theirs").toString()));
        assertEquals(USER, theirs.uid());
        assertEquals("theirs\n", Files.readString(dst.resolve("theirs")));
    }
}

package io.sparkdcp.job;

import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.Stat;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.CopyTreeMain;
import io.sparkdcp.testing.LocalCopy;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.ReadableClasspath;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Directories the walk cannot list fail once and still get their metadata; trees deeper than
 * PATH_MAX copy exactly, as cp -a copies them.
 */
class UnlistableAndDeepTreesTest {
    private static final int USER = 1001;
    private static LoopMount mount;

    @BeforeAll
    static void mount() {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.create("unlistable", 400);
    }

    @AfterAll
    static void unmount() {
        if (mount != null) mount.close();
    }

    @Test
    void aDirectoryTheWalkCannotListFailsOnceAndGetsItsModeAndTimes() throws Exception {
        Path src = mount.dir().resolve("src-locked");
        Path dst = mount.dir().resolve("dst-locked");
        Commands.bash("set -e; mkdir -p '" + src + "/locked' '" + dst + "'; cd '" + src + "'"
                + "; echo kept > kept; echo secret > locked/secret; chmod 0750 locked"
                + "; touch -d '2001-02-03 04:05:06.789' locked"
                + "; chown -R " + USER + ":" + USER + " . '" + dst + "'; chmod 0000 locked");
        String classpath = ReadableClasspath.copyTo(mount.dir().resolve("classpath"));

        Process p = new ProcessBuilder("setpriv", "--reuid=" + USER, "--regid=" + USER, "--clear-groups",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", classpath,
                CopyTreeMain.class.getName(), src.toString(), dst.toString(), "fd")
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(3, TimeUnit.MINUTES), "copy as user timed out");

        assertEquals(1, p.exitValue(), out);
        assertTrue(out.contains("failed 1\n"), "the unlistable directory fails once: " + out);
        assertEquals(1, out.lines().filter(l -> l.startsWith("locked: ")).count(), out);
        Stat copy = Posix.lstat(PathBytes.of(dst.resolve("locked").toString()));
        Stat original = Posix.lstat(PathBytes.of(src.resolve("locked").toString()));
        assertEquals(0, copy.permissions(), "the source's mode, not the 0700 of its making");
        assertTrue(copy.sameMtime(original), "the source's mtime");
        assertEquals("kept\n", Files.readString(dst.resolve("kept")));
    }

    /** 25 levels of 205-byte names: about 5,150 bytes of path below the root. */
    @Test
    void aTreeDeeperThanPathMaxCopiesExactly() {
        Path src = mount.dir().resolve("src-deep");
        Path dst = mount.dir().resolve("dst-deep");
        Commands.bash("set -e; mkdir -p '" + src + "' '" + dst + "'; cd '" + src + "'"
                + "; for i in $(seq 1 25); do d=$(printf 'd%03d_%0201d' $i 0); mkdir $d; cd $d; done"
                + "; echo deep > file; ln -s file link; mkdir leaf; echo leaf > leaf/inner; ln file hard"
                + "; setfattr -n user.deep -v yes file; chmod 0640 file; chmod 0711 leaf"
                + "; touch -h -d '2001-02-03 04:05:06.123456789' file link leaf/inner leaf ."
                + "; cd '" + src + "'; touch -d '2002-01-01' \"$(ls)\"");
        assertTrue(Integer.parseInt(Commands.bash("cd '" + src + "' && find . -name file -printf '%p' | wc -c").trim()) > 4096);

        CopyReport report = LocalCopy.defaults().run(src, dst);

        assertEquals(List.of(), report.counts().failures());
        assertEquals(0, report.exitCode());
        String want = archive(src);
        assertTrue(want.length() > 0);
        assertEquals(want, archive(dst), "names, data, modes, owners, times, xattrs and the hard link");
        assertNotEquals(0, report.counts().copied(io.sparkdcp.posix.FileType.FILE));

        CopyReport again = LocalCopy.defaults().run(src, dst);
        assertEquals(List.of(), again.counts().failures());
        assertEquals(0, again.counts().copied(io.sparkdcp.posix.FileType.FILE), "a re-run finds it all there");
    }

    /** A listing of the tree as tar sees it (tar works below PATH_MAX by descriptor): one line per entry. */
    private static String archive(Path root) {
        return Commands.bash("cd '" + root + "' && tar --sort=name --numeric-owner --xattrs --format=posix"
                + " --pax-option=delete=atime,delete=ctime -cf - . | tar --numeric-owner --full-time --xattrs -tvvf - | md5sum; "
                + "tar --sort=name --numeric-owner --xattrs --format=posix --pax-option=delete=atime,delete=ctime -cf - . | md5sum");
    }
}

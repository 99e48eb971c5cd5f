package io.sparkdcp.job;

import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.CopyTreeMain;
import io.sparkdcp.testing.LoopMount;
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
 * Counts, under strace, the system calls that touch one plain file during a whole copy: the
 * single-fd way must stay within the budget of the design (the bench's path way shows its extra
 * opens: PathWaySyscallTest in the bench module).
 */
class SyscallCountTest {
    private static final int FILES = 40;
    private static final Pattern UNNAMED = Pattern.compile("/#\\d+>\\(deleted\\)");
    private static LoopMount mount;
    private static Path source;

    @BeforeAll
    static void makeTree() throws IOException {
        LoopMount.requireRootAndXfs();
        Commands.requireTool("strace", "strace");
        mount = LoopMount.create("syscalls", 400);
        source = Files.createDirectory(mount.dir().resolve("src"));
        Path project = Files.createDirectory(source.resolve("project"));
        Commands.run("xfs_io", "-c", "chproj 4242", "-c", "chattr +P", project.toString());
        for (int i = 0; i < FILES; i++) Files.writeString(project.resolve(String.format("plain-%03d.dat", i)), "data " + i);
        Files.createDirectory(project.resolve("inheriting")); // project 4242 and PROJINHERIT from its parent
        // The files carry their directory's project, as files created there do.
        Commands.bash("cd '" + project + "' && for f in plain-*; do xfs_io -c 'chproj 4242' $f; done");
        Path flagged = project.resolve("nodump.dat");
        Files.writeString(flagged, "a file with a flag");
        Commands.run("xfs_io", "-c", "chproj 4242", "-c", "chattr +d", flagged.toString());
    }

    @AfterAll
    static void unmount() {
        if (mount != null) mount.close();
    }

    @Test
    void aPlainFileInheritingItsProjectCostsElevenCopierCallsAndOneWalkStat() throws Exception {
        List<String> calls = callsOn("plain-017.dat", "fd");
        long walk = calls.stream().filter(c -> c.startsWith("statx(") && c.contains("/src/project>")).count();
        assertEquals(1, walk, "the walk stats each entry once: " + calls);
        List<String> copier = calls.stream().filter(c -> !(c.startsWith("statx(") && c.contains("/src/project>"))).toList();
        // Eight for the copy, plus the fstat after the data that proves the source did not change
        // meanwhile, the look at the name (a re-run learns there that it may skip) and the link that
        // names the complete, unnamed copy. The source keeps O_NONBLOCK, which XFS ignores for data.
        assertTrue(copier.size() <= 11, copier.size() + " calls in the copier: " + copier);
        assertEquals(1, copier.stream().filter(c -> c.startsWith("openat(") && c.contains("O_TMPFILE")).count(), copier.toString());
        assertEquals(1, copier.stream().filter(c -> c.startsWith("linkat(") && c.contains("AT_EMPTY_PATH")).count(), copier.toString());
        assertTrue(copier.stream().noneMatch(c -> c.startsWith("rename") || c.startsWith("fsetxattr") || c.startsWith("fremovexattr")),
                "no temporary name, no marker: " + copier);
        assertTrue(copier.stream().noneMatch(c -> c.startsWith("fcntl")), "O_NONBLOCK is not cleared: " + copier);
        assertEquals(1, copier.stream().filter(c -> c.startsWith("statx(") && c.contains("AT_EMPTY_PATH")).count(), copier.toString());
        assertTrue(copier.stream().noneMatch(c -> c.startsWith("fchmod")), "created with its mode: " + copier);
        assertTrue(copier.stream().noneMatch(c -> c.contains("\"/")), "nothing by absolute path: " + copier);
        assertTrue(copier.stream().noneMatch(c -> c.startsWith("ioctl") && c.contains("FSSETXATTR")),
                "the inherited project ID is not set again: " + copier);
    }

    @Test
    void aFlagCostsOneSetAndTheReadBackThatChecksIt() throws Exception {
        List<String> calls = callsOn("nodump.dat", "fd").stream().filter(c -> !(c.startsWith("statx(") && c.contains("/src/project>"))).toList();
        assertEquals(1, calls.stream().filter(c -> c.startsWith("ioctl") && c.contains("FSSETXATTR")).count(), calls.toString());
        // The source's get (as for any file) and the read-back; what dst holds is known from its directory.
        assertEquals(2, calls.stream().filter(c -> c.startsWith("ioctl") && c.contains("FSGETXATTR")).count(), calls.toString());
        assertTrue(calls.size() <= 14, calls.size() + " calls: " + calls);
    }

    @Test
    void aDirectoryThatInheritsItsProjectIsMadeWithoutOpeningItForTheIoctl() throws Exception {
        List<String> destination = callsOn("inheriting", "fd").stream().filter(c -> c.contains("/dst-")).toList();
        assertEquals(1, destination.stream().filter(c -> c.startsWith("mkdirat")).count(), destination.toString());
        // Opened once, to finish it (owner, mode, times); not in between to set the project it already has.
        assertEquals(1, destination.stream().filter(c -> c.startsWith("openat")).count(), destination.toString());
    }

    @Test
    void theAlwaysSetVariantSetsTheInheritedProjectAgainOnTheSameFd() throws Exception {
        List<String> always = callsOn("plain-031.dat", "fd-always-set");
        List<String> sets = always.stream().filter(c -> c.startsWith("ioctl") && c.contains("FSSETXATTR")).toList();
        assertEquals(1, sets.size(), "one FSSETXATTR on the file: " + always);
        assertEquals(2, always.stream().filter(c -> c.startsWith("open")).count(), "still one open per side: " + always);
        assertTrue(always.stream().noneMatch(c -> c.contains("\"/")), "nothing by absolute path: " + always);
    }

    /** The calls of a copy of the whole tree that name the file or act on a descriptor of it. */
    private static List<String> callsOn(String name, String access) throws Exception {
        Path dst = mount.dir().resolve("dst-" + access + "-" + System.nanoTime());
        Files.createDirectory(dst);
        Path traces = Files.createDirectory(mount.dir().resolve("trace-" + System.nanoTime()));
        // A file per thread (-ff): no call is cut in two by another thread's.
        Process p = new ProcessBuilder("strace", "-ff", "-qq", "-y", "-o", traces.resolve("t").toString(),
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), CopyTreeMain.class.getName(),
                source.toString(), dst.toString(), access)
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertTrue(p.waitFor(3, TimeUnit.MINUTES), "copy under strace timed out");
        assertEquals(0, p.exitValue(), "copy under strace failed");
        List<String> lines = new ArrayList<>();
        for (Path trace : TreeFiles.regularFiles(traces)) lines.addAll(Files.readAllLines(trace));
        // The copy is unnamed (O_TMPFILE) until its link: strace shows its descriptor as the directory's "#inode (deleted)".
        // Where it is made by name (the path way), as a temporary: .spark-dcp.NAME.<16 hex>.tmp
        Pattern named = Pattern.compile(Pattern.quote(name) + "[\">]|" + Pattern.quote(".spark-dcp." + name + ".") + "[0-9a-f]{16}\\.tmp");
        String unnamed = lines.stream().filter(l -> l.startsWith("linkat(") && named.matcher(l).find())
                .map(l -> UNNAMED.matcher(l)).filter(java.util.regex.Matcher::find).map(m -> m.group()).findFirst().orElse(null);
        Pattern mentions = unnamed == null ? named : Pattern.compile(named.pattern() + "|" + Pattern.quote(unnamed));
        return lines.stream().filter(l -> mentions.matcher(l).find()).toList();
    }
}

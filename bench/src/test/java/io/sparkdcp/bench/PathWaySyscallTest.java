package io.sparkdcp.bench;

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
 * Under strace, the calls that touch one plain file during a whole copy by the bench's path way,
 * against the fd way's (whose budget the product's SyscallCountTest holds): its extra opens.
 */
class PathWaySyscallTest {
    private static final int FILES = 40;
    private static final Pattern UNNAMED = Pattern.compile("/#\\d+>\\(deleted\\)");
    private static LoopMount mount;
    private static Path source;

    @BeforeAll
    static void makeTree() throws IOException {
        LoopMount.requireRootAndXfs();
        Commands.requireTool("strace", "strace");
        mount = LoopMount.create("pathsyscalls", 400);
        source = Files.createDirectory(mount.dir().resolve("src"));
        Path project = Files.createDirectory(source.resolve("project"));
        Commands.run("xfs_io", "-c", "chproj 4242", "-c", "chattr +P", project.toString());
        for (int i = 0; i < FILES; i++) Files.writeString(project.resolve(String.format("plain-%03d.dat", i)), "data " + i);
        // The files carry their directory's project, as files created there do.
        Commands.bash("cd '" + project + "' && for f in plain-*; do xfs_io -c 'chproj 4242' $f; done");
    }

    @AfterAll
    static void unmount() {
        if (mount != null) mount.close();
    }

    @Test
    void thePathWayOpensTheFileAgainForItsIoctls() throws Exception {
        List<String> byFd = callsOn("plain-023.dat", "fd");
        List<String> byPath = callsOn("plain-023.dat", "path");
        long fdOpens = byFd.stream().filter(c -> c.startsWith("open")).count();
        long pathOpens = byPath.stream().filter(c -> c.startsWith("open")).count();
        assertEquals(2, fdOpens, "one open per side: " + byFd);
        assertEquals(4, pathOpens, "a second open per side for the ioctls: " + byPath);
        assertEquals(1, byPath.stream().filter(c -> c.startsWith("renameat(") || c.startsWith("renameat2(")).count(), "the path way names a temporary: " + byPath);
        assertTrue(byPath.size() > byFd.size());
        // "By path" is the name looked up again in its open directory, never a path from a root.
        List<String> byName = byPath.stream().filter(c -> c.startsWith("l") && c.contains("xattr(")).toList();
        assertTrue(!byName.isEmpty() && byName.stream().allMatch(c -> c.contains("(\"/proc/self/fd/")), byName.toString());
        assertTrue(byPath.stream().filter(c -> c.startsWith("open")).allMatch(c -> !c.contains("\"/")), byPath.toString());
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

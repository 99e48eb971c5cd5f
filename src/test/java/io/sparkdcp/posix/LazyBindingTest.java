package io.sparkdcp.posix;

import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.LoopMount;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * jnr-ffi generates a class with every method of an interface when it binds it, which costs start-up
 * time per method: a copy of plain files and directories, run as a user runs it in a fresh JVM, binds
 * none of the libc calls it never makes, and a group of calls is bound when one of them is first made.
 * The bound interfaces are read from the JVM's own class-loading log.
 */
class LazyBindingTest {
    /** Calls a copy of files and directories (with xattrs and project IDs) into an empty DST never makes. */
    private static final Set<String> NOT_MADE_BY_A_PLAIN_COPY = Set.of("unlinkat", "renameat", "fremovexattr",
            "pread", "pwrite", "lseek", "ftruncate", "fsync", "symlinkat", "readlinkat", "mknodat",
            "fchownat", "fchmodat", "utimensat", "llistxattr", "lgetxattr", "lsetxattr");
    private static final Pattern BOUND = Pattern.compile("(io\\.sparkdcp\\.posix\\.\\S+?)\\$jnr\\$ffi\\$\\d+ source");

    private static LoopMount mount;
    private static Path plain;
    private static Path withSymlink;

    @BeforeAll
    static void makeTrees() throws IOException {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.create("binding", LoopMount.MIN_SIZE_MIB);
        plain = Files.createDirectory(mount.dir().resolve("plain"));
        Path project = Files.createDirectories(plain.resolve("project/inner"));
        Commands.run("xfs_io", "-c", "chproj 4242", "-c", "chattr +P", project.toString());
        for (int i = 0; i < 20; i++) Files.writeString(project.resolve("file-" + i), "data " + i);
        Commands.run("setfattr", "-n", "user.kept", "-v", "yes", project.resolve("file-3").toString());
        withSymlink = Files.createDirectory(mount.dir().resolve("symlink"));
        Files.writeString(withSymlink.resolve("target"), "data");
        Files.createSymbolicLink(withSymlink.resolve("link"), Path.of("target"));
    }

    @AfterAll
    static void unmount() {
        if (mount != null) mount.close();
    }

    @Test
    void aCopyOfFilesAndDirectoriesBindsNoCallItNeverMakes() throws Exception {
        Set<String> bound = boundCallsOfACopy(plain, "plain");
        assertTrue(bound.contains("openat") && bound.contains("copy_file_range"), bound.toString());
        Set<String> unused = new TreeSet<>(bound);
        unused.retainAll(NOT_MADE_BY_A_PLAIN_COPY);
        assertEquals(Set.of(), unused, "bound but never called by a plain copy");
    }

    @Test
    void aSymlinkBindsTheCallsByNameWhenItIsCopied() throws Exception {
        Set<String> bound = boundCallsOfACopy(withSymlink, "symlink");
        assertTrue(bound.containsAll(Set.of("readlinkat", "symlinkat")), bound.toString());
        assertTrue(bound.stream().noneMatch(Set.of("pread", "unlinkat", "llistxattr")::contains), bound.toString());
        Path copied = mount.dir().resolve("dst-symlink/link");
        assertEquals(Path.of("target"), Files.readSymbolicLink(copied));
    }

    /** Copies source/ into a new DST in a fresh JVM, through the CLI; returns the names of the calls it bound. */
    private static Set<String> boundCallsOfACopy(Path source, String name) throws Exception {
        Path destination = mount.dir().resolve("dst-" + name);
        Path log = mount.dir().resolve("classes-" + name + ".log");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xlog:class+load:file=" + log, "-cp", System.getProperty("java.class.path"),
                "io.sparkdcp.cli.Main", "copy", source + "/", destination.toString())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertTrue(p.waitFor(3, TimeUnit.MINUTES), "the copy timed out");
        assertEquals(0, p.exitValue(), "the copy failed");
        Set<String> calls = new TreeSet<>();
        for (String line : Files.readAllLines(log)) {
            Matcher m = BOUND.matcher(line);
            if (!m.find()) continue;
            for (Method method : Class.forName(m.group(1)).getDeclaredMethods()) calls.add(method.getName());
        }
        assertTrue(!calls.isEmpty(), "no libc binding in the class-loading log");
        return calls;
    }
}

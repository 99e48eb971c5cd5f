package io.sparkdcp.cli;

import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.TreeFiles;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 12 rows A and B, on XFS: SRC inside DST is refused before anything is deleted, and an empty
 * SRC or DST is a usage error, not the current directory. Exit 2, one line, nothing written.
 */
class RootArgumentsTest {
    private static LoopMount mount;

    @BeforeAll
    static void mount() {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.create("rootargs", 300);
    }

    @AfterAll
    static void unmount() {
        if (mount != null) mount.close();
    }

    private static void assertRefused(CommandLineRun run, String reasonPart) {
        assertEquals(2, run.exitCode(), run.err());
        assertEquals(1, run.err().strip().lines().count(), run.err());
        assertTrue(run.err().startsWith("spark-dcp: ") && run.err().contains(reasonPart), run.err());
        assertEquals("", run.out());
    }

    @Test
    void syncDeleteWithTheSourceInsideTheDestinationDeletesNothing() throws IOException {
        Path t = Files.createDirectories(mount.dir().resolve("a/t"));
        Files.createDirectories(t.resolve("sub/inner"));
        Files.writeString(t.resolve("sub/inner/data"), "precious");
        Files.writeString(t.resolve("other"), "also precious");
        List<Path> before = TreeFiles.everything(t);

        assertRefused(CommandLineRun.asLaunched("sync", "--delete", t.resolve("sub") + "/", t.toString()), "inside the destination");
        assertRefused(CommandLineRun.asLaunched("sync", "--delete", "--dry-run", t.resolve("sub") + "/", t.toString()),
                "inside the destination");
        assertRefused(CommandLineRun.asLaunched("copy", t.resolve("sub") + "/", t.toString()), "inside the destination");

        assertEquals(before, TreeFiles.everything(t));
        assertEquals("precious", Files.readString(t.resolve("sub/inner/data")));
    }

    @Test
    void syncDeleteWithTheSourceInsideTheDestinationThroughASymlinkDeletesNothing() throws IOException {
        Path t = Files.createDirectories(mount.dir().resolve("b/t"));
        Files.createDirectories(t.resolve("sub"));
        Files.writeString(t.resolve("sub/data"), "precious");
        Path link = Files.createSymbolicLink(mount.dir().resolve("b/link-to-sub"), t.resolve("sub"));

        assertRefused(CommandLineRun.asLaunched("sync", "--delete", link + "/", t.toString()), "inside the destination");

        assertEquals("precious", Files.readString(t.resolve("sub/data")));
    }

    @Test
    void anEmptyDestinationIsAUsageErrorAndTheCurrentDirectoryIsUntouched() throws Exception {
        Path src = Files.createDirectories(mount.dir().resolve("c/src"));
        Files.writeString(src.resolve("f"), "f");
        Files.setPosixFilePermissions(src, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path cwd = Files.createDirectories(mount.dir().resolve("c/cwd"));
        Files.setPosixFilePermissions(cwd, PosixFilePermissions.fromString("rwx------"));
        Files.setLastModifiedTime(cwd, FileTime.fromMillis(1_000_000_000_000L));

        for (String[] args : List.of(new String[]{"copy", src.toString(), ""}, new String[]{"sync", "--delete", src.toString(), ""})) {
            Launched run = launch(cwd, args);
            assertEquals(2, run.exitCode(), run.err());
            assertEquals("spark-dcp: destination must not be empty (an empty DST is not the current directory)", run.err().strip());
        }

        assertEquals(List.of(cwd), TreeFiles.everything(cwd), "nothing written into the current directory");
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(cwd)));
        assertEquals(FileTime.fromMillis(1_000_000_000_000L), Files.getLastModifiedTime(cwd));
    }

    @Test
    void anEmptySourceIsAUsageErrorNotADestinationInsideTheSource() throws IOException {
        Path dst = mount.dir().resolve("d/dst");
        assertRefused(CommandLineRun.asLaunched("copy", "", dst.toString()), "source must not be empty");
        assertTrue(Files.notExists(dst));
    }

    private record Launched(int exitCode, String err) {}

    /** The CLI in a JVM of its own whose working directory is cwd: what "" would have meant. */
    private static Launched launch(Path cwd, String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).directory(cwd.toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(2, TimeUnit.MINUTES));
        return new Launched(p.exitValue(), err);
    }
}

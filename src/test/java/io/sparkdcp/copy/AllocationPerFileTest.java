package io.sparkdcp.copy;

import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.LoopMount;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the engine allocates per small file, under C1 as the local launcher runs it: C1 allocates a
 * capturing lambda through a slow VM call, and the per-file steps made about twenty of them
 * (1,796 bytes per file then, 1,226 without them). A budget, as SyscallCountTest's, not a timing:
 * the count is the same on every run.
 */
class AllocationPerFileTest {
    private static final int FILES = 500;
    /** 1,500 until each new file's name was looked at before its link into place: a statx buffer (256 bytes) and the name's C string more. */
    private static final long BUDGET_BYTES_PER_FILE = 1_750;

    @Test
    void aSmallFileInheritingItsProjectAllocatesWithinTheBudget() throws Exception {
        LoopMount.requireRootAndXfs();
        try (LoopMount mount = LoopMount.create("allocation", 300)) {
            Path src = Files.createDirectory(mount.dir().resolve("src"));
            Commands.run("xfs_io", "-c", "chproj 4242", "-c", "chattr +P", src.toString());
            for (int i = 0; i < FILES; i++) {
                Path f = Files.write(src.resolve("f" + i), new byte[1024 + i]); // created in src: project 4242
                if (i % 10 == 0) Files.setAttribute(f, "user:note", ("note " + i).getBytes(StandardCharsets.UTF_8));
            }
            Path first = Files.createDirectory(mount.dir().resolve("first"));
            Path second = Files.createDirectory(mount.dir().resolve("second"));
            Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                    AllocationPerFileMain.class.getName(), src.toString(), first.toString(), second.toString())
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            assertTrue(p.waitFor(2, TimeUnit.MINUTES), "the copy timed out");
            assertEquals(0, p.exitValue(), out);
            long perFile = Long.parseLong(out);
            assertTrue(perFile <= BUDGET_BYTES_PER_FILE, perFile + " bytes allocated per file, budget " + BUDGET_BYTES_PER_FILE);
            try (var copied = Files.list(second)) {
                assertEquals(FILES, copied.count());
            }
        }
    }
}

package io.sparkdcp.cli;

import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.LoopMount;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** --no-flags and --strict through the command line (threads in this JVM), on XFS and ext4. */
class InodeOptionsRunTest {
    private static LoopMount xfs;
    private static LoopMount ext4;
    private static Path source;

    @BeforeAll
    static void mount() throws IOException {
        LoopMount.requireRootAndXfs();
        xfs = LoopMount.create("flag-options", LoopMount.MIN_SIZE_MIB);
        ext4 = LoopMount.createExt4("flag-options-ext4", LoopMount.MIN_SIZE_MIB);
        source = Files.createDirectory(xfs.dir().resolve("src"));
        Path file = Files.writeString(source.resolve("nodefrag"), "nodefrag and nodump");
        Commands.run("xfs_io", "-r", "-c", "chattr +fd", file.toString());
    }

    @AfterAll
    static void unmount() {
        if (xfs != null) xfs.close();
        if (ext4 != null) ext4.close();
    }

    @Test
    void flagsAreCopiedUnlessNoFlags() {
        Path with = xfs.dir().resolve("with");
        Path without = xfs.dir().resolve("without");
        assertEquals(0, CommandLineRun.of("copy", source + "/", with.toString()).exitCode());
        assertEquals(0, CommandLineRun.of("copy", "--no-flags", source + "/", without.toString()).exitCode());
        assertTrue(lsattr(with.resolve("nodefrag")).contains("d"), lsattr(with.resolve("nodefrag")));
        assertTrue(lsattr(without.resolve("nodefrag")).matches("-+"), lsattr(without.resolve("nodefrag")));
    }

    @Test
    void aFlagTheDestinationCannotHoldIsANoticeOrWithStrictAFailure() {
        CommandLineRun lenient = CommandLineRun.of("copy", "--no-projid", source + "/", ext4.dir().resolve("lenient").toString());
        assertEquals(0, lenient.exitCode(), lenient.err());
        assertTrue(lenient.err().contains("cannot hold the nodefrag flag"), lenient.err());
        CommandLineRun strict = CommandLineRun.of("copy", "--no-projid", "--strict", source + "/", ext4.dir().resolve("strict").toString());
        assertEquals(1, strict.exitCode(), strict.err());
        assertTrue(strict.err().contains("nodefrag"), strict.err());
    }

    private static String lsattr(Path p) {
        return Commands.run("lsattr", "-d", p.toString()).trim().split("\\s+")[0];
    }
}

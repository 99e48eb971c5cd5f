package io.sparkdcp.copy.compare;

import io.sparkdcp.copy.steps.Step;
import io.sparkdcp.copy.steps.StepStats;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.PosixException;
import io.sparkdcp.posix.Stat;
import io.sparkdcp.walk.Entry;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Verification and byte comparison on real files: a one-byte difference is found, a short source is named. */
@Tag("fast")
class ContentComparerTest {
    @TempDir
    Path tmp;

    private final ContentComparer comparer = new ContentComparer();
    private final StepStats steps = new StepStats();

    private static Entry file(String name, long size) {
        Stat s = Stat.of(FileType.FILE).permissions(0644).size(size).blocks(size / 512 + 1).nlink(1).build();
        return new Entry(PathBytes.of(name), s, null);
    }

    private Fd open(Path p) {
        return Posix.open(PathBytes.of(p.toString()), Linux.O_RDONLY);
    }

    private Path write(String name, byte[] data) throws IOException {
        return Files.write(tmp.resolve(name), data);
    }

    @Test
    void equalFilesVerifyAndCompareEqual() throws IOException {
        byte[] data = new byte[(3 << 20) + 17];
        data[data.length - 1] = 7;
        try (Fd a = open(write("a", data)); Fd b = open(write("b", data))) {
            assertDoesNotThrow(() -> comparer.verify(file("a", data.length), a, b, steps));
            assertTrue(comparer.equal(a, b, data.length, steps));
        }
        assertTrue(steps.asMap().containsKey(Step.VERIFY.label()));
    }

    @Test
    void aSingleDifferentByteFailsVerification() throws IOException {
        byte[] data = new byte[(2 << 20) + 5];
        byte[] other = data.clone();
        other[(1 << 20) + 3] = 1;
        try (Fd a = open(write("a", data)); Fd b = open(write("b", other))) {
            PosixException e = assertThrows(PosixException.class, () -> comparer.verify(file("a", data.length), a, b, steps));
            assertEquals("verify", e.call());
            assertTrue(e.reason().contains("CRC32C"), e.reason());
            assertFalse(comparer.equal(a, b, data.length, steps));
        }
    }

    @Test
    void aSourceLongerThanTheWalkSawIsNamedAsChanged() throws IOException {
        try (Fd a = open(write("a", new byte[30])); Fd b = open(write("b", new byte[20]))) {
            PosixException e = assertThrows(PosixException.class, () -> comparer.verify(file("a", 20), a, b, steps));
            assertTrue(e.reason().contains("grew"), e.reason());
        }
    }

    @Test
    void aSourceShorterThanTheWalkSawIsNamedAsChanged() throws IOException {
        try (Fd a = open(write("a", new byte[10])); Fd b = open(write("b", new byte[20]))) {
            PosixException e = assertThrows(PosixException.class, () -> comparer.verify(file("a", 20), a, b, steps));
            assertTrue(e.reason().contains("shorter"), e.reason());
        }
    }
}

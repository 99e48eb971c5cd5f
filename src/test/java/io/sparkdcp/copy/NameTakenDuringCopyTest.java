package io.sparkdcp.copy;

import io.sparkdcp.copy.options.CopyModes;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.copy.steps.Step;
import io.sparkdcp.copy.steps.StepRecorder;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.testing.LocalCopy;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.walk.Entry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A file whose name was free when the copy looked at it, and that someone creates there before the copy
 * names its own: what they made stays, byte for byte, and the copy reports the entry failed, with no
 * temporary left. Each way of naming a new file: a named temporary (where O_TMPFILE is refused, forced here),
 * an unnamed file, and --inplace.
 */
class NameTakenDuringCopyTest {
    private static final byte[] INTRUDER = "made at DST while the copy ran".getBytes();
    private static LoopMount mount;
    private static final AtomicInteger cases = new AtomicInteger();

    @BeforeAll
    static void mount() {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.create("name-taken", LoopMount.MIN_SIZE_MIB);
    }

    @AfterAll
    static void unmount() {
        if (mount != null) mount.close();
    }

    @Test
    void aNamedTemporaryIsNotRenamedOverAFileCreatedAtItsNameMeanwhile() throws Exception {
        String before = System.getProperty(Temporaries.NAMED_TEMPORARIES_PROPERTY);
        System.setProperty(Temporaries.NAMED_TEMPORARIES_PROPERTY, "true");
        try {
            new Case(CopyModes.COPY).intrudeBefore(Step.RENAME);
        } finally {
            if (before == null) System.clearProperty(Temporaries.NAMED_TEMPORARIES_PROPERTY);
            else System.setProperty(Temporaries.NAMED_TEMPORARIES_PROPERTY, before);
        }
    }

    @Test
    void anUnnamedFileIsNotLinkedNorCopiedAgainOverAFileCreatedAtItsNameMeanwhile() throws Exception {
        new Case(CopyModes.COPY).intrudeBefore(Step.LINK);
    }

    /** --inplace creates the file under its name: one made there first is never opened for writing. */
    @Test
    void anInPlaceCopyLeavesAFileCreatedAtItsNameBeforeItsCreate() throws Exception {
        new Case(CopyModes.of(CopyModes.Mode.INPLACE)).intrudeBefore(Step.OPEN_DST);
    }

    private static final class Case {
        final Path src;
        final Path dst;
        final CopyOptions options;

        Case(CopyModes modes) throws IOException {
            Path dir = Files.createDirectory(mount.dir().resolve("case-" + cases.incrementAndGet()));
            src = Files.createDirectory(dir.resolve("src"));
            dst = Files.createDirectory(dir.resolve("dst"));
            byte[] data = new byte[200_000];
            new Random(5).nextBytes(data);
            Files.write(src.resolve("f"), data);
            options = CopyOptions.between(PathBytes.of(src.toString()), PathBytes.of(dst.toString()), LocalCopy.EVERYTHING,
                    modes, 1L << 30);
        }

        /** Runs the copy of f, which finds DST/f free; someone writes DST/f just before the copy's first step. */
        void intrudeBefore(Step step) throws IOException {
            Entry f = new Entry(PathBytes.of("f"), Posix.lstat(PathBytes.of(src.resolve("f").toString())), null);
            CopyCounts counts;
            try (CopyEngine engine = new CopyEngine(options, new Intruder(step, dst.resolve("f")))) {
                counts = engine.copyFiles(List.of(f), List.of()).counts();
            }
            assertArrayEquals(INTRUDER, Files.readAllBytes(dst.resolve("f")), "the file made at DST is left as it was");
            List<Failure> failures = counts.failures();
            assertEquals(1, failures.size(), "the entry fails: " + failures);
            assertEquals("f", failures.get(0).path());
            assertTrue(failures.get(0).message().contains("created at DST during the copy"), failures.get(0).toString());
            assertEquals(0, counts.copied(FileType.FILE));
            try (var names = Files.list(dst)) {
                assertEquals(List.of("f"), names.map(p -> p.getFileName().toString()).toList(), "no temporary left");
            }
        }
    }

    /** Writes the intruder's file at the first start of step. */
    private record Intruder(Step step, Path at, AtomicInteger seen) implements StepRecorder {
        Intruder(Step step, Path at) { this(step, at, new AtomicInteger()); }

        @Override
        public void record(Step s, long nanos) {}

        @Override
        public long start(Step s) {
            if (s == step && seen.incrementAndGet() == 1) {
                try {
                    Files.write(at, INTRUDER);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            return 0;
        }
    }
}

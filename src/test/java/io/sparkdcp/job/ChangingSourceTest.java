package io.sparkdcp.job;

import io.sparkdcp.posix.Failure;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.testing.LocalCopy;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.SwappingPhaseRunner;
import io.sparkdcp.testing.TreeComparator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Files written to while the copy runs: a copy that no longer matches the source is never passed off as complete. */
class ChangingSourceTest {
    private LoopMount mount;
    private Path src;
    private Path dst;

    @BeforeEach
    void makeTree() throws IOException {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.create("changing", 300);
        src = Files.createDirectory(mount.dir().resolve("src"));
        dst = Files.createDirectory(mount.dir().resolve("dst"));
        Files.write(src.resolve("grows"), new byte[100_000]);
        Files.write(src.resolve("shrinks"), new byte[100_000]);
        Files.writeString(src.resolve("steady"), "unchanged");
    }

    @AfterEach
    void unmount() {
        if (mount != null) mount.close();
    }

    @Test
    void filesThatGrowOrShrinkAfterTheWalkFailAndAreLeftForTheNextRun() throws IOException {
        SwappingPhaseRunner changeSource = new SwappingPhaseRunner(new LocalPhaseRunner(2), "copy files", () -> {
            try {
                Files.write(src.resolve("grows"), new byte[]{1, 2, 3}, StandardOpenOption.APPEND);
                try (var f = Files.newByteChannel(src.resolve("shrinks"), StandardOpenOption.WRITE)) {
                    f.truncate(50_000);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        CopyReport report = LocalCopy.defaults().run(src, dst, changeSource);
        assertTrue(changeSource.swapped());
        Map<String, Failure> failed = report.counts().failures().stream().collect(Collectors.toMap(Failure::path, f -> f));
        assertEquals(List.of("grows", "shrinks"), failed.keySet().stream().sorted().toList());
        assertTrue(failed.get("grows").message().contains("grew"), failed.get("grows").toString());
        assertTrue(failed.get("shrinks").message().contains("ended at byte"), failed.get("shrinks").toString());
        assertFalse(Files.exists(dst.resolve("grows")), "no partial copy left under the final name");
        assertFalse(Files.exists(dst.resolve("shrinks")));
        assertEquals("unchanged", Files.readString(dst.resolve("steady")));
        assertEquals(1, report.exitCode());

        CopyReport rerun = LocalCopy.defaults().run(src, dst);
        assertEquals(List.of(), rerun.counts().failures());
        TreeComparator.assertSameTree(src, dst);
    }
}

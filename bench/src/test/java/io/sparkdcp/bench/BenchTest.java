package io.sparkdcp.bench;

import io.sparkdcp.copy.steps.StepStats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** The bench's loop: contenders interleaved round by round, warm-ups not counted, each into a fresh destination. */
class BenchTest {
    @TempDir
    Path tmp;

    /** Records the order of its calls and makes the destination as a copy would. */
    private record Recording(String name, List<String> calls, List<Path> destinations) implements Contender {
        @Override
        public RoundResult copy(Path source, Path destination) throws IOException {
            assertFalse(Files.exists(destination), "a fresh destination each time");
            Files.createDirectory(destination);
            calls.add(name);
            destinations.add(destination);
            return new RoundResult(1_000_000L * calls.size(), 0, new StepStats());
        }

        @Override
        public List<String> commandLine(Path source, Path destination) {
            return List.of("true");
        }
    }

    @Test
    void contendersRunInterleavedAndWarmUpsAreNotCounted() throws Exception {
        Path src = Files.createDirectory(tmp.resolve("src"));
        Files.writeString(src.resolve("f"), "x");
        List<String> calls = new ArrayList<>();
        List<Path> destinations = new ArrayList<>();
        List<Contender> three = List.of(new Recording("A", calls, destinations), new Recording("B", calls, destinations),
                new Recording("C", calls, destinations));

        BenchReport report = new Bench(three, 2, 1, line -> {}).run(src, tmp, "test");

        assertEquals(List.of("A", "B", "C", "A", "B", "C", "A", "B", "C"), calls);
        assertEquals(List.of("A", "B", "C"), report.contenders().stream().map(ContenderResult::name).toList());
        assertEquals(2, report.contenders().get(0).rounds().size());
        assertEquals(List.of(4_000_000L, 7_000_000L), report.contenders().get(0).rounds().stream().map(RoundResult::wallNanos).toList());
        assertEquals(new SourceSummary(1, 1, 1), report.tree());
        assertEquals(9, destinations.stream().distinct().count());
        destinations.forEach(d -> assertFalse(Files.exists(d), d + " deleted after its round"));
    }
}

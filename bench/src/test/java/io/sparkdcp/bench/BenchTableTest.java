package io.sparkdcp.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.sparkdcp.copy.steps.Step;
import io.sparkdcp.copy.steps.StepStats;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the bench prints from given rounds: medians, ratios to the first contender, steps per file. */
class BenchTableTest {
    private static final SourceSummary TREE = new SourceSummary(1_000, 10, 2_000_000);

    private static RoundResult round(long millis, long ioctlSetCalls) {
        StepStats steps = new StepStats();
        for (int i = 0; i < ioctlSetCalls; i++) steps.record(Step.IOCTL_SET, 4_000);
        steps.record(Step.OPEN_SRC, 2_000_000);
        // Two threads busy all along: CPU time twice the wall time.
        return new RoundResult(millis * 1_000_000, 0, steps, java.util.Map.of("open", 3_000L), 2 * millis * 1_000_000);
    }

    private static BenchReport report() {
        ContenderResult none = new ContenderResult("none", List.of(round(100, 0), round(300, 0), round(200, 0), round(120, 0)));
        ContenderResult path = new ContenderResult("path", List.of(round(320, 1_000), round(400, 1_000), round(330, 1_000)));
        return new BenchReport("/src", TREE, 3, "local", List.of(none, path));
    }

    @Test
    void medianMinMaxAndRatioComeFromTheRounds() {
        ContenderResult none = report().contenders().get(0);
        ContenderResult path = report().contenders().get(1);
        assertEquals(160_000_000L, none.medianNanos(), "even count: mean of the middle two");
        assertEquals(100_000_000L, none.minNanos());
        assertEquals(300_000_000L, none.maxNanos());
        assertEquals(330_000_000L, path.medianNanos());
        assertEquals(330.0 / 160.0, path.ratioTo(none), 1e-9);
        assertEquals(1_000 / 0.33, report().filesPerSecond(path), 1e-6);
        assertEquals(320_000_000L, none.medianCpuNanos(), "the CPU times' own median, not the fastest round's");
        assertEquals(660_000_000L, path.medianCpuNanos());
    }

    @Test
    void stepsArePerSourceFilePerRound() {
        ContenderResult path = report().contenders().get(1);
        assertEquals(4.0, path.stepMicrosPerFile(TREE.files()).get(Step.IOCTL_SET), 1e-9);
        assertEquals(1.0, path.stepCallsPerFile(TREE.files()).get(Step.IOCTL_SET), 1e-9);
        assertEquals(2.0, path.stepMicrosPerFile(TREE.files()).get(Step.OPEN_SRC), 1e-9);
    }

    @Test
    void fileSystemRequestsArePerSourceFilePerRound() {
        assertEquals(java.util.Map.of("open", 3.0), report().contenders().get(1).requestsPerFile(TREE.files()));
        assertTrue(BenchTable.render(report()).lines().anyMatch(l -> l.matches("open\\s+3\\.00\\s+3\\.00")));
    }

    @Test
    void tableHasOneRowPerContenderAndAStepColumnEach() {
        String table = BenchTable.render(report());
        List<String> lines = table.lines().toList();
        assertTrue(lines.get(2).matches("none\\s+0\\.160\\s+0\\.100\\s+0\\.300\\s+0\\.32\\s+6,250\\s+12\\.5\\s+1\\.000\\s+0"), lines.get(2));
        assertTrue(lines.get(3).matches("path\\s+0\\.330\\s+0\\.320\\s+0\\.400\\s+0\\.66\\s+3,030\\s+6\\.1\\s+2\\.063\\s+0"), lines.get(3));
        assertTrue(table.lines().anyMatch(l -> l.matches("ioctl_set\\s+-\\s+4\\.00")), table);
        assertTrue(table.lines().anyMatch(l -> l.matches("open_src\\s+2\\.00\\s+2\\.00")), table);
    }

    @Test
    void perRoundTableListsEveryRoundThenMedianAndRatio() {
        BenchReport twoRounds = new BenchReport("/src", TREE, 2, "local", List.of(
                new ContenderResult("without projid", List.of(round(100, 0), round(300, 0))),
                new ContenderResult("with projid", List.of(round(400, 0), round(200, 0)))));
        assertEquals(List.of("round\twithout projid\twith projid", "1\t0.100\t0.400", "2\t0.300\t0.200",
                "median\t0.200\t0.300", "ratio\t1.000\t1.500"), RoundsTable.render(twoRounds).lines().toList());
    }

    @Test
    void jsonCarriesEveryRoundAndTheRatios() throws Exception {
        JsonNode json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(BenchJson.render(report()));
        assertEquals("none", json.get("baseline").asText());
        assertEquals(1_000, json.get("files").asLong());
        JsonNode path = json.get("contenders").get(1);
        assertEquals("path", path.get("name").asText());
        assertEquals(3, path.get("wall_nanos").size());
        assertEquals(330_000_000L, path.get("median_wall_nanos").asLong());
        assertEquals(660_000_000L, path.get("median_cpu_nanos").asLong());
        assertEquals(330.0 / 160.0, path.get("ratio_to_baseline").asDouble(), 1e-9);
        assertEquals(4.0, path.at("/step_micros_per_file/ioctl_set").asDouble(), 1e-9);
        assertEquals(1.0, path.at("/step_calls_per_file/ioctl_set").asDouble(), 1e-9);
        assertEquals(3.0, path.at("/requests_per_file/open").asDouble(), 1e-9);
    }
}

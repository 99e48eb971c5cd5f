package io.sparkdcp.bench.scale;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ScaleBenchTurnTest {
    @Test
    void roundsTakeTurnsInTheOtherOrderSoNoPlanIsAlwaysFirst() {
        List<String> order = new ArrayList<>();
        for (int round = 0; round < 4; round++) order.addAll(ScaleBench.turn(round));
        assertEquals(List.of("executors", "driver", "driver", "executors", "executors", "driver", "driver", "executors"), order);
    }

    @Test
    void bothPlansCopyTheBigTreeUntimedBeforeAnyTimedCopySoNeitherPaysTheFirstCompiling() {
        List<ScaleBench.Copy> copies = ScaleBench.schedule(2);
        assertEquals(List.of(new ScaleBench.Copy("big", "executors", true), new ScaleBench.Copy("big", "driver", true)), copies.subList(0, 2));
        assertEquals(List.of(new ScaleBench.Copy("small", "executors", false), new ScaleBench.Copy("small", "driver", false),
                new ScaleBench.Copy("big", "executors", false), new ScaleBench.Copy("big", "driver", false),
                new ScaleBench.Copy("big", "driver", false), new ScaleBench.Copy("big", "executors", false)), copies.subList(2, copies.size()));
    }
}

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
}

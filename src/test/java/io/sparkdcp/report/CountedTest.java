package io.sparkdcp.report;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

@Tag("fast")
class CountedTest {
    @Test
    void oneIsSingularAndEveryOtherCountPlural() {
        assertEquals("1 round", Counted.of(1, "round"));
        assertEquals("0 rounds", Counted.of(0, "round"));
        assertEquals("2 rounds", Counted.of(2, "round"));
        assertEquals("1 entry", Counted.of(1, "entry"));
        assertEquals("1,200 entries", Counted.of(1200, "entry"));
        assertEquals("3 file batches", Counted.of(3, "file batch"));
        assertEquals("2 directory levels", Counted.of(2, "directory level"));
        assertEquals("5 destination entries", Counted.of(5, "destination entry"));
    }
}

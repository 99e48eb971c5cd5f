package io.sparkdcp.progress;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Sizes as rsync -h and numfmt --to=iec-i show them: powers of 1024, one decimal. */
@Tag("fast")
class IecTest {
    @Test
    void bytesBelowOneKibibyteStayBytes() {
        assertEquals("0 B", Iec.bytes(0));
        assertEquals("1023 B", Iec.bytes(1023));
    }

    @Test
    void largerSizesTakeTheLargestUnitBelowThem() {
        assertEquals("1.0 KiB", Iec.bytes(1024));
        assertEquals("3.4 KiB", Iec.bytes(3_467));
        assertEquals("2.9 MiB", Iec.bytes(3_000_000));
        assertEquals("1.5 GiB", Iec.bytes(3L << 29));
        assertEquals("1.0 TiB", Iec.bytes(1L << 40));
        assertEquals("8.0 EiB", Iec.bytes(Long.MAX_VALUE));
    }

    @Test
    void aValueThatRoundsUpToTheNextUnitIsShownInIt() {
        assertEquals("1.0 MiB", Iec.bytes((1L << 20) - 1));
    }

    @Test
    void aBwlimitOf200MReadsBackAs200MiB() {
        assertEquals("200.0 MiB/s", Iec.rate(200L << 20));
    }
}

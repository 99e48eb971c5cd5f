package io.sparkdcp.cli;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

@Tag("fast")
class DurationConverterTest {
    private final DurationConverter converter = new DurationConverter();

    @Test
    void unitsScaleToNanoseconds() {
        assertEquals(200_000L, converter.convert("200us"));
        assertEquals(1_500_000L, converter.convert("1.5ms"));
        assertEquals(2_000_000_000L, converter.convert("2s"));
        assertEquals(750L, converter.convert("750ns"));
        assertEquals(0L, converter.convert("0"));
    }

    @Test
    void aNumberWithoutUnitOrAnythingElseIsRefused() {
        assertThrows(TypeConversionException.class, () -> converter.convert("200"));
        assertThrows(TypeConversionException.class, () -> converter.convert("fast"));
    }
}

package io.sparkdcp.cli;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine.TypeConversionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Tag("fast")
class SizeConverterTest {
    private final SizeConverter sizes = new SizeConverter();

    @ParameterizedTest
    @CsvSource({"100, 100", "0, 0", "512K, 524288", "64M, 67108864", "1G, 1073741824", "2T, 2199023255552",
            "64m, 67108864", "' 1g ', 1073741824"})
    void readsBytesWithBinaryUnits(String text, long bytes) {
        assertEquals(bytes, sizes.convert(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "M", "abc", "1.5G", "-1", "64MB", "64MiB", "1 G", "1P", "0x10"})
    void rejectsAnythingElseSayingWhatIsExpected(String text) {
        TypeConversionException e = assertThrows(TypeConversionException.class, () -> sizes.convert(text));
        assertTrue(e.getMessage().contains("512K, 64M or 1G"), e.getMessage());
    }

    @Test
    void rejectsSizesBeyondALong() {
        assertThrows(TypeConversionException.class, () -> sizes.convert("9223372036854775808"));
        assertThrows(TypeConversionException.class, () -> sizes.convert("8388608T"));
        assertEquals(8388607L << 40, sizes.convert("8388607T"));
    }
}

package io.sparkdcp.cli;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations like {@code 200us}, {@code 1.5ms}, {@code 2s}, {@code 0}: to nanoseconds. Public for the bench's options ({@link ModuleCommand}). */
public final class DurationConverter implements ITypeConverter<Long> {
    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ns|us|µs|ms|s)?");

    @Override
    public Long convert(String value) {
        Matcher m = DURATION.matcher(value.strip().toLowerCase(Locale.ROOT));
        if (!m.matches()) throw new TypeConversionException("'" + value + "' is not a duration (like 200us, 1ms or 0)");
        double number = Double.parseDouble(m.group(1));
        String unit = m.group(2) == null ? (number == 0 ? "s" : "") : m.group(2);
        double nanos = switch (unit) {
            case "ns" -> number;
            case "us", "µs" -> number * 1e3;
            case "ms" -> number * 1e6;
            case "s" -> number * 1e9;
            default -> throw new TypeConversionException("'" + value + "' needs a unit: ns, us, ms or s");
        };
        return Math.round(nanos);
    }
}

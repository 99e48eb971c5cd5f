package io.sparkdcp.cli;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.util.function.Function;

/** An option value read by the parser the API uses too: picocli then reports a bad value as invalid input, with the parser's explanation. */
abstract class ParsedValue<T> implements ITypeConverter<T> {
    private final Function<String, T> parser;

    ParsedValue(Function<String, T> parser) {
        this.parser = parser;
    }

    @Override
    public T convert(String value) {
        try {
            return parser.apply(value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }
}

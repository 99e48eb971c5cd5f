package io.sparkdcp.cli;

import io.sparkdcp.api.Sizes;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Sizes of the bench's own options ({@code --large-size}), by the API's parser: public for them ({@link ModuleCommand}). */
public final class SizeConverter implements ITypeConverter<Long> {
    @Override
    public Long convert(String value) {
        try {
            return Sizes.parse(value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }
}

package io.sparkdcp.cli;

import io.sparkdcp.copy.MetadataAccess;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** {@code --xattr-access}: picocli then reports a bad word as invalid input, with the parser's own explanation. */
final class MetadataAccessConverter implements ITypeConverter<MetadataAccess> {
    @Override
    public MetadataAccess convert(String value) {
        try {
            return MetadataAccess.parse(value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }
}

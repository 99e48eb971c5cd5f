package io.sparkdcp.cli;

import io.sparkdcp.copy.XattrPolicy;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** {@code --xattrs}: picocli then reports a bad word as invalid input, with the parser's own explanation. */
final class XattrPolicyConverter implements ITypeConverter<XattrPolicy> {
    @Override
    public XattrPolicy convert(String value) {
        try {
            return XattrPolicy.parse(value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }
}

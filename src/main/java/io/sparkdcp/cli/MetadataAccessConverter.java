package io.sparkdcp.cli;

import io.sparkdcp.copy.MetadataAccess;

/** {@code --xattr-access}. */
final class MetadataAccessConverter extends ParsedValue<MetadataAccess> {
    MetadataAccessConverter() { super(MetadataAccess::parse); }
}

package io.sparkdcp.cli;

import io.sparkdcp.api.Sizes;

/** {@code --batch-bytes}, {@code --chunk-size}. */
final class SizeConverter extends ParsedValue<Long> {
    SizeConverter() { super(Sizes::parse); }
}

package io.sparkdcp.cli;

import io.sparkdcp.job.WalkMode;

/** {@code --walk}. */
final class WalkModeConverter extends ParsedValue<WalkMode> {
    WalkModeConverter() { super(WalkMode::parse); }
}

package io.sparkdcp.cli;

import io.sparkdcp.copy.XattrPolicy;

/** {@code --xattrs}. */
final class XattrPolicyConverter extends ParsedValue<XattrPolicy> {
    XattrPolicyConverter() { super(XattrPolicy::parse); }
}

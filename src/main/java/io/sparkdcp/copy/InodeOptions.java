package io.sparkdcp.copy;

import java.io.Serializable;

/**
 * What of an inode beyond owner, mode, times, xattrs and project ID the copy carries.
 *
 * @param flags  the fsx_xflags a user sets (immutable, append-only, sync, noatime, nodump, nodefrag, dax)
 *               and the extent-size hints; off with --no-flags
 * @param strict a destination that cannot hold a flag fails the entry; otherwise one notice per flag kind
 * @param lustreLayout what Lustre layout new files and directories get
 */
public record InodeOptions(boolean flags, boolean strict, LustreLayout lustreLayout) implements Serializable {
    public static final InodeOptions DEFAULT = new InodeOptions(true, false, LustreLayout.INHERIT);

    public InodeOptions {
        if (lustreLayout == null) throw new IllegalArgumentException("--lustre-layout must be given");
    }

    public InodeOptions withFlags(boolean on) { return new InodeOptions(on, strict, lustreLayout); }

    public InodeOptions withStrict(boolean on) { return new InodeOptions(flags, on, lustreLayout); }

    public InodeOptions withLustreLayout(LustreLayout l) { return new InodeOptions(flags, strict, l); }
}

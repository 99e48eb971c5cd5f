package io.sparkdcp.copy;

import java.io.Serializable;

/**
 * What of an inode beyond owner, mode, times, xattrs and project ID the copy carries.
 *
 * @param flags  the fsx_xflags a user sets (immutable, append-only, sync, noatime, nodump, nodefrag, dax)
 *               and the extent-size hints; off with --no-flags
 * @param strict a destination that cannot hold a flag fails the entry; otherwise one notice per flag kind
 * @param layout what Lustre layout new files and directories get
 */
public record InodeOptions(boolean flags, boolean strict, LustreLayout layout) implements Serializable {
    public static final InodeOptions DEFAULT = new InodeOptions(true, false, LustreLayout.INHERIT);

    public InodeOptions {
        if (layout == null) throw new IllegalArgumentException("layout must be given");
    }

    public InodeOptions withFlags(boolean on) { return new InodeOptions(on, strict, layout); }

    public InodeOptions withStrict(boolean on) { return new InodeOptions(flags, on, layout); }

    public InodeOptions withLayout(LustreLayout l) { return new InodeOptions(flags, strict, l); }
}

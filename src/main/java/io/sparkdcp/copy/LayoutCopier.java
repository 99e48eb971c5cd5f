package io.sparkdcp.copy;

import io.sparkdcp.copy.keep.Keep;
import io.sparkdcp.copy.keep.LustreLayout;
import io.sparkdcp.copy.steps.Step;
import io.sparkdcp.copy.steps.StepRecorder;
import io.sparkdcp.posix.Errno;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.NativeBuffer;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.PosixException;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * --lustre-layout keep|exact: the source's {@code lustre.lov} given to a new file on the descriptor
 * that created it with O_LOV_DELAY_CREATE, before its first byte (after that Lustre keeps the layout
 * it has and, through this xattr, says nothing: llite's ll_setstripe_ea eats EEXIST), and to a new
 * directory as its default layout before its first entry. keep drops the OST indexes: each
 * (component's) lov_user_md gets stripe offset -1, so the target's MDS picks the OSTs. One engine's.
 */
final class LayoutCopier {
    static final byte[] LUSTRE_LOV = PathBytes.of("lustre.lov");
    static final String NOTICE_OP = "keep layout";

    private static final int MAGIC_V1 = 0x0BD10BD0;
    private static final int MAGIC_V3 = 0x0BD30BD0;
    private static final int MAGIC_COMP_V1 = 0x0BD60BD0;
    private static final int STRIPE_OFFSET = 30;   // __u16 lmm_stripe_offset in lov_user_md v1/v3
    private static final int V1_HEADER = 32;       // lov_user_md_v1 before lmm_objects
    private static final int COMP_HEADER = 32;     // lov_comp_md_v1 before lcm_entries
    private static final int COMP_ENTRY = 48;      // lov_comp_md_entry_v1
    private static final int ENTRY_COUNT = 14;     // __u16 lcm_entry_count
    private static final int ENTRY_OFFSET = 24;    // __u32 lcme_offset within an entry

    private final LustreLayout mode;
    private final boolean strict;
    private final NativeBuffer buffer = new NativeBuffer(4096);
    private final List<Failure> notices = new ArrayList<>();

    LayoutCopier(Keep options) {
        this.mode = options.lustreLayout();
        this.strict = options.strict();
    }

    /** Whether layouts are copied: then files are created with O_LOV_DELAY_CREATE. */
    boolean active() {
        return mode != LustreLayout.INHERIT;
    }

    /** The flags a new file is created with. */
    int createFlags(int flags) {
        return active() ? flags | io.sparkdcp.posix.Linux.O_LOV_DELAY_CREATE : flags;
    }

    /**
     * Gives dst (new, nothing written yet) the source's layout, when the source has one. A destination
     * that holds no Lustre layouts (not Lustre) gets one notice for the job, or with --strict fails the
     * entry; each entry still tries (one failed call), as a tree may span mounts.
     */
    void copy(Fd src, Fd dst, byte[] relPath, StepRecorder steps) {
        if (!active()) return;
        byte[] layout = steps.time(Step.XATTR_GET, () -> read(src));
        if (layout == null) return;
        byte[] wanted = mode == LustreLayout.KEEP ? withoutOstIndexes(layout) : layout;
        steps.time(Step.XATTR_SET, () -> {
            try {
                Posix.fsetxattr(dst, LUSTRE_LOV, wanted);
            } catch (PosixException e) {
                if (e.errno() != Errno.EOPNOTSUPP) throw e;
                if (strict) throw new PosixException(e.call(), e.errno(), relPath,
                        "the destination cannot hold a Lustre layout (--lustre-layout " + mode.word() + ", --strict)");
                notices.add(Failure.of(relPath, NOTICE_OP, "the destination cannot hold Lustre layouts (--lustre-layout "
                        + mode.word() + "): every entry takes its directory's"));
            }
        });
    }

    /** The source's layout, or null where it has none (not Lustre, or a file without objects). */
    private byte[] read(Fd src) {
        try {
            return Posix.fgetxattr(src, LUSTRE_LOV, buffer);
        } catch (PosixException e) {
            if (e.errno() == Errno.EOPNOTSUPP) return null;
            throw e;
        }
    }

    void drainInto(CopyCounts counts) {
        for (Failure f : notices) counts.addNoticeOnce(f);
        notices.clear();
    }

    /**
     * The layout with every stripe offset -1 (the MDS chooses): plain v1/v3, or each component of a
     * composite (PFL) layout. Anything else (foreign layouts) goes as it is.
     */
    static byte[] withoutOstIndexes(byte[] layout) {
        byte[] out = Arrays.copyOf(layout, layout.length);
        ByteBuffer b = ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN);
        if (out.length < V1_HEADER) return out;
        int magic = b.getInt(0);
        if (magic == MAGIC_V1 || magic == MAGIC_V3) {
            clearOffset(b, 0);
        } else if (magic == MAGIC_COMP_V1 && out.length >= COMP_HEADER) {
            int entries = b.getShort(ENTRY_COUNT) & 0xffff;
            for (int i = 0; i < entries && COMP_HEADER + (i + 1) * COMP_ENTRY <= out.length; i++) {
                int at = b.getInt(COMP_HEADER + i * COMP_ENTRY + ENTRY_OFFSET);
                if (at >= 0 && at + V1_HEADER <= out.length) clearOffset(b, at);
            }
        }
        return out;
    }

    private static void clearOffset(ByteBuffer b, int at) {
        int magic = b.getInt(at);
        if (magic == MAGIC_V1 || magic == MAGIC_V3) b.putShort(at + STRIPE_OFFSET, (short) -1);
    }
}

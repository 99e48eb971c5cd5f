package io.sparkdcp.copy;

import io.sparkdcp.copy.keep.MetadataAccess;
import io.sparkdcp.copy.keep.XattrPolicy;
import io.sparkdcp.copy.steps.Step;
import io.sparkdcp.copy.steps.StepRecorder;
import io.sparkdcp.posix.Errno;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.FsXattr;
import io.sparkdcp.posix.NativeBuffer;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.PosixException;

import java.util.ArrayList;
import java.util.List;

/** Everything on the descriptors the copy already holds: no path look-up, no second open. */
final class FdMetadataIO implements MetadataIO {
    private final XattrPolicy policy;
    private final StepRecorder steps;
    /** Set the project even when dst already has it (the bench's {@link MetadataAccess#FD_ALWAYS_SET}). */
    private final boolean alwaysSet;
    private final NativeBuffer buffer = new NativeBuffer(64 * 1024);

    private final FlagRefusals refusals;

    FdMetadataIO(XattrPolicy policy, StepRecorder steps, boolean alwaysSet, FlagRefusals refusals) {
        this.policy = policy;
        this.steps = steps;
        this.alwaysSet = alwaysSet;
        this.refusals = refusals;
    }

    @Override
    public FsXattr readFsXattr(Fd src, byte[] relPath) {
        return projectOrNull(src, steps);
    }

    /** The struct (project ID and flags) of an open entry (timed as ioctl_get), or null where the file system has none. */
    static FsXattr projectOrNull(Fd fd, StepRecorder steps) {
        long t = steps.start(Step.IOCTL_GET);
        try {
            return Posix.getFsXattr(fd);
        } catch (PosixException e) {
            if (noProjectSupport(e)) return null;
            throw e;
        } finally {
            steps.stop(Step.IOCTL_GET, t);
        }
    }

    /** The bench's always-set sets every project, once per entry; a flags-only write (a directory's finish) is still skipped when held. */
    private boolean always(WantedFsXattr wanted) {
        return alwaysSet && wanted.project();
    }

    @Override
    public boolean needsFsXattrWrite(WantedFsXattr wanted, FsXattr inherited) {
        return wanted != null && (always(wanted) || inherited == null || !wanted.heldBy(inherited, false));
    }

    @Override
    public FsXattr writeFsXattr(Fd dst, byte[] relPath, WantedFsXattr wanted, FsXattr inherited, boolean withLocks) {
        if (wanted == null) return inherited;
        if (!always(wanted) && inherited != null && wanted.heldBy(inherited, withLocks)) return inherited;
        // The bits dst has that are not copied (PROJINHERIT, realtime...) stay as they are: known, or read first.
        FsXattr current = inherited;
        if (current == null) {
            long t = steps.start(Step.IOCTL_GET);
            try {
                current = readDestination(dst, relPath, wanted, refusals);
            } finally {
                steps.stop(Step.IOCTL_GET, t);
            }
        }
        if (current == null) return null;
        if (!always(wanted) && wanted.heldBy(current, withLocks)) return current;
        long t = steps.start(Step.IOCTL_SET);
        try {
            return refusals.set(dst, relPath, current, wanted.applyTo(current, withLocks), alwaysSet);
        } finally {
            steps.stop(Step.IOCTL_SET, t);
        }
    }

    @Override
    public List<Xattr> readXattrs(Fd src, byte[] relPath) {
        if (policy.copiesNothing()) return List.of();
        List<byte[]> names;
        long t = steps.start(Step.XATTR_LIST);
        try {
            names = Posix.flistxattr(src, buffer);
        } finally {
            steps.stop(Step.XATTR_LIST, t);
        }
        if (names.isEmpty()) return List.of(); // most files: no lambda for their values made
        return readKept(names, policy, steps, name -> Posix.fgetxattr(src, name, buffer));
    }

    /** Values of the listed names the policy keeps (each get timed as xattr_get); names gone meanwhile are left out. */
    static List<Xattr> readKept(List<byte[]> names, XattrPolicy policy, StepRecorder steps,
                                java.util.function.Function<byte[], byte[]> get) {
        List<Xattr> out = new ArrayList<>(names.size());
        for (byte[] name : names) {
            if (!policy.keeps(name)) continue;
            byte[] value;
            long t = steps.start(Step.XATTR_GET);
            try {
                value = get.apply(name);
            } finally {
                steps.stop(Step.XATTR_GET, t);
            }
            if (value != null) out.add(new Xattr(name, value));
        }
        return out;
    }

    @Override
    public void writeXattrs(Fd dst, byte[] relPath, List<Xattr> xattrs) {
        for (Xattr x : xattrs) {
            long t = steps.start(Step.XATTR_SET);
            try {
                Posix.fsetxattr(dst, x.name(), x.value());
            } finally {
                steps.stop(Step.XATTR_SET, t);
            }
        }
    }

    /**
     * The destination's struct, or null when its file system has none: then a real project ID it
     * cannot hold fails the entry, and flags it cannot hold are noticed (or fail it with --strict).
     */
    static FsXattr readDestination(Fd dst, byte[] relPath, WantedFsXattr wanted, FlagRefusals refusals) {
        try {
            return Posix.getFsXattr(dst);
        } catch (PosixException e) {
            if (!noProjectSupport(e)) throw e;
            if (wanted.carriesProject()) throw cannotHold(e, relPath, wanted.source());
            if (wanted.carriesFlags()) refusals.refuseAll(wanted.source(), relPath, e);
            return null;
        }
    }

    /** Sets the source's project on dst; a file system that has the ioctl but no project IDs (ext4 without quota) says so. */
    static void setProject(Fd dst, byte[] relPath, FsXattr current, FsXattr source) {
        try {
            Posix.setFsXattr(dst, current.withProject(source.projid(), source.projInherit()));
        } catch (PosixException e) {
            if (!noProjectSupport(e)) throw e;
            throw cannotHold(e, relPath, source);
        }
    }

    private static PosixException cannotHold(PosixException e, byte[] relPath, FsXattr source) {
        return new PosixException(e.call(), e.errno(), relPath, "the destination file system cannot hold project ID "
                + source.projid() + (source.projInherit() ? " with PROJINHERIT" : "") + "; --no-projid copies without them");
    }

    static boolean noProjectSupport(PosixException e) {
        return e.errno() == Errno.ENOTTY || e.errno() == Errno.EOPNOTSUPP || e.errno() == Errno.EINVAL;
    }
}

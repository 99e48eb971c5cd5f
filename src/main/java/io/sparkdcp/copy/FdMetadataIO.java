package io.sparkdcp.copy;

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
    private final NativeBuffer buffer = new NativeBuffer(64 * 1024);

    FdMetadataIO(XattrPolicy policy, StepRecorder steps) {
        this.policy = policy;
        this.steps = steps;
    }

    @Override
    public FsXattr readProject(Fd src, byte[] relPath) {
        long t = System.nanoTime();
        try {
            return Posix.getFsXattr(src);
        } catch (PosixException e) {
            if (noProjectSupport(e)) return null;
            throw e;
        } finally {
            steps.record(Step.IOCTL_GET, System.nanoTime() - t);
        }
    }

    @Override
    public void writeProject(Fd dst, byte[] relPath, FsXattr source, FsXattr inherited) {
        if (source == null) return;
        if (inherited != null && inherited.projid() == source.projid()
                && inherited.projInherit() == source.projInherit()) return;
        // Read dst's struct first so the flags it inherited (extent size, nodump...) stay as they are.
        long t = System.nanoTime();
        FsXattr current = Posix.getFsXattr(dst);
        steps.record(Step.IOCTL_GET, System.nanoTime() - t);
        if (current.projid() == source.projid() && current.projInherit() == source.projInherit()) return;
        t = System.nanoTime();
        Posix.setFsXattr(dst, current.withProject(source.projid(), source.projInherit()));
        steps.record(Step.IOCTL_SET, System.nanoTime() - t);
    }

    @Override
    public List<Xattr> readXattrs(Fd src, byte[] relPath) {
        if (policy.copiesNothing()) return List.of();
        long t = System.nanoTime();
        List<byte[]> names = Posix.flistxattr(src, buffer);
        steps.record(Step.XATTR_LIST, System.nanoTime() - t);
        List<Xattr> out = new ArrayList<>(names.size());
        for (byte[] name : names) {
            if (!policy.keeps(name)) continue;
            t = System.nanoTime();
            byte[] value = Posix.fgetxattr(src, name, buffer);
            steps.record(Step.XATTR_GET, System.nanoTime() - t);
            if (value != null) out.add(new Xattr(name, value));
        }
        return out;
    }

    @Override
    public void writeXattrs(Fd dst, byte[] relPath, List<Xattr> xattrs) {
        for (Xattr x : xattrs) {
            long t = System.nanoTime();
            Posix.fsetxattr(dst, x.name(), x.value());
            steps.record(Step.XATTR_SET, System.nanoTime() - t);
        }
    }

    static boolean noProjectSupport(PosixException e) {
        return e.errno() == Errno.ENOTTY || e.errno() == Errno.EOPNOTSUPP || e.errno() == Errno.EINVAL;
    }
}

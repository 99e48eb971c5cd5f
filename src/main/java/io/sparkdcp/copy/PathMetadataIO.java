package io.sparkdcp.copy;

import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.FsXattr;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.NativeBuffer;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;

import java.util.List;

/**
 * The way the rejected mpifileutils patch did it, kept for measurement: xattrs by full path
 * (llistxattr, lgetxattr, lsetxattr) and a second open of each file for every project-ID ioctl,
 * setting the ID whether or not the file already has it. The extra opens count as open_src/open_dst.
 */
final class PathMetadataIO implements MetadataIO {
    private final byte[] sourceRoot;
    private final byte[] destinationRoot;
    private final XattrPolicy policy;
    private final StepRecorder steps;
    private final NativeBuffer buffer = new NativeBuffer(64 * 1024);

    PathMetadataIO(CopyOptions options, StepRecorder steps) {
        this.sourceRoot = options.sourceRoot();
        this.destinationRoot = options.destinationRoot();
        this.policy = options.xattrs();
        this.steps = steps;
    }

    @Override
    public FsXattr readProject(Fd src, byte[] relPath) {
        Fd second = openByPath(sourceRoot, relPath, Step.OPEN_SRC);
        try {
            return FdMetadataIO.projectOrNull(second, steps);
        } finally {
            closeTimed(second);
        }
    }

    /** The path way as the rejected patch had it: always a second open and the ioctls. */
    @Override
    public boolean needsProjectWrite(FsXattr source, FsXattr inherited) {
        return true;
    }

    @Override
    public void writeProject(Fd dst, byte[] relPath, FsXattr source, FsXattr inherited) {
        if (source == null) return;
        Fd second = openByPath(destinationRoot, relPath, Step.OPEN_DST);
        try {
            FsXattr current = steps.time(Step.IOCTL_GET, () -> FdMetadataIO.readDestinationProject(second, relPath, source));
            if (current == null) return;
            steps.time(Step.IOCTL_SET, () -> FdMetadataIO.setProject(second, relPath, current, source));
        } finally {
            closeTimed(second);
        }
    }

    @Override
    public List<Xattr> readXattrs(Fd src, byte[] relPath) {
        if (policy.copiesNothing()) return List.of();
        byte[] path = absolute(sourceRoot, relPath);
        List<byte[]> names = steps.time(Step.XATTR_LIST, () -> Posix.llistxattr(path, buffer));
        return FdMetadataIO.readKept(names, policy, steps, name -> Posix.lgetxattr(path, name, buffer));
    }

    @Override
    public void writeXattrs(Fd dst, byte[] relPath, List<Xattr> xattrs) {
        byte[] path = absolute(destinationRoot, relPath);
        for (Xattr x : xattrs) steps.time(Step.XATTR_SET, () -> Posix.lsetxattr(path, x.name(), x.value()));
    }

    private Fd openByPath(byte[] root, byte[] relPath, Step step) {
        return steps.time(step, () -> Posix.open(absolute(root, relPath), Linux.O_RDONLY | Linux.O_NOFOLLOW | Linux.O_NONBLOCK));
    }

    private void closeTimed(Fd fd) {
        steps.time(Step.CLOSE, fd::close);
    }

    private static byte[] absolute(byte[] root, byte[] relPath) {
        return relPath.length == 0 ? root : PathBytes.join(root, relPath);
    }
}

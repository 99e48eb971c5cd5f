package io.sparkdcp.copy;

import io.sparkdcp.copy.keep.XattrPolicy;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.copy.steps.Step;
import io.sparkdcp.copy.steps.StepRecorder;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.FsXattr;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.NativeBuffer;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;

import java.util.List;

/**
 * The way the rejected mpifileutils patch did it, kept for measurement: xattrs by path (llistxattr,
 * lgetxattr, lsetxattr) and a second open of each file for every project-ID ioctl, setting the ID
 * whether or not the file already has it. The extra opens count as open_src/open_dst. "By path" is
 * the entry's name looked up again in its open parent directory ({@code /proc/self/fd/N/name}, or
 * openat), never a path from the root: a directory swapped for a symlink cannot lead outside the
 * trees, and with --atomic the name is the temporary's.
 */
final class PathMetadataIO implements MetadataIO {
    private static final byte[] DOT = PathBytes.of(".");
    private static final int SECOND_OPEN = Linux.O_RDONLY | Linux.O_NOFOLLOW | Linux.O_NONBLOCK;

    private final DirectoryCache source;
    private final DirectoryCache destination;
    private final XattrPolicy policy;
    private final StepRecorder steps;
    private final NativeBuffer buffer = new NativeBuffer(64 * 1024);

    private final FlagRefusals refusals;
    private final CopyOptions options;

    PathMetadataIO(CopyOptions options, StepRecorder steps, DirectoryCache source, DirectoryCache destination,
                   FlagRefusals refusals) {
        this.refusals = refusals;
        this.options = options;
        this.source = source;
        this.destination = destination;
        this.policy = options.xattrs();
        this.steps = steps;
    }

    @Override
    public FsXattr readFsXattr(Fd src, byte[] relPath) {
        Fd second = openByPath(source, options.sourcePath(relPath), Step.OPEN_SRC);
        try {
            return FdMetadataIO.projectOrNull(second, steps);
        } finally {
            closeTimed(second);
        }
    }

    /** The path way as the rejected patch had it: always a second open and the ioctls. */
    @Override
    public boolean needsFsXattrWrite(WantedFsXattr wanted, FsXattr inherited) {
        return wanted != null;
    }

    @Override
    public FsXattr writeFsXattr(Fd dst, byte[] relPath, WantedFsXattr wanted, FsXattr inherited, boolean withLocks) {
        if (wanted == null) return inherited;
        Fd second = openByPath(destination, relPath, Step.OPEN_DST);
        try {
            FsXattr current = steps.time(Step.IOCTL_GET, () -> FdMetadataIO.readDestination(second, relPath, wanted, refusals));
            if (current == null) return null;
            return steps.time(Step.IOCTL_SET, () -> refusals.set(second, relPath, current, wanted.applyTo(current, withLocks), true));
        } finally {
            closeTimed(second);
        }
    }

    @Override
    public List<Xattr> readXattrs(Fd src, byte[] relPath) {
        if (policy.copiesNothing()) return List.of();
        byte[] path = throughParent(source, options.sourcePath(relPath));
        List<byte[]> names = steps.time(Step.XATTR_LIST, () -> Posix.llistxattr(path, buffer));
        return FdMetadataIO.readKept(names, policy, steps, name -> Posix.lgetxattr(path, name, buffer));
    }

    @Override
    public void writeXattrs(Fd dst, byte[] relPath, List<Xattr> xattrs) {
        byte[] path = throughParent(destination, relPath);
        for (Xattr x : xattrs) steps.time(Step.XATTR_SET, () -> Posix.lsetxattr(path, x.name(), x.value()));
    }

    /** The second open: the name looked up again in its open parent (the root itself for the root). */
    private Fd openByPath(DirectoryCache tree, byte[] relPath, Step step) {
        return steps.time(step, () -> relPath.length == 0
                ? Posix.openat(tree.root(), DOT, SECOND_OPEN, 0)
                : Posix.openat(tree.get(PathBytes.parent(relPath)), PathBytes.name(relPath), SECOND_OPEN, 0));
    }

    private void closeTimed(Fd fd) {
        steps.time(Step.CLOSE, fd::close);
    }

    /** {@code /proc/self/fd/N/name}, N the open parent: the kernel looks the name up in that directory. */
    private static byte[] throughParent(DirectoryCache tree, byte[] relPath) {
        Fd dir = relPath.length == 0 ? tree.root() : tree.get(PathBytes.parent(relPath));
        byte[] name = relPath.length == 0 ? DOT : PathBytes.name(relPath);
        return PathBytes.join(PathBytes.of("/proc/self/fd/" + dir.fd()), name);
    }
}

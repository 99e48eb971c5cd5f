package io.sparkdcp.bench;

import io.sparkdcp.copy.MetadataIO;
import io.sparkdcp.copy.WantedFsXattr;
import io.sparkdcp.copy.Xattr;
import io.sparkdcp.copy.keep.XattrPolicy;
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
 * The bench's baseline, the way the rejected mpifileutils patch did it: xattrs by path (llistxattr,
 * lgetxattr, lsetxattr) and a second open of each file for every project-ID ioctl, setting the ID
 * whether or not the file already has it. The extra opens count as open_src/open_dst. "By path" is
 * the entry's name looked up again in its open parent directory ({@code /proc/self/fd/N/name}, or
 * openat), never a path from the root: a directory swapped for a symlink cannot lead outside the
 * trees, and for a file being written the name is its temporary's. The copy finds it as the
 * {@link io.sparkdcp.copy.keep.MetadataAccess#PATH} way, listed in the bench's services.
 */
public final class PathMetadataIO implements MetadataIO {
    private static final byte[] DOT = PathBytes.of(".");
    private static final int SECOND_OPEN = Linux.O_RDONLY | Linux.O_NOFOLLOW | Linux.O_NONBLOCK;

    /** The bench's path way, for the copy's tasks. */
    public static final class Way implements MetadataIO.Way {
        @Override
        public String name() {
            return "path";
        }

        @Override
        public MetadataIO open(Task task) {
            return new PathMetadataIO(task);
        }
    }

    private final Task task;
    private final XattrPolicy policy;
    private final StepRecorder steps;
    private final NativeBuffer buffer = new NativeBuffer(64 * 1024);

    private PathMetadataIO(Task task) {
        this.task = task;
        this.policy = task.options().xattrs();
        this.steps = task.steps();
    }

    @Override
    public FsXattr readFsXattr(Fd src, byte[] relPath) {
        byte[] path = task.options().sourcePath(relPath);
        Fd second = openByPath(task.sourceParent(path), path, Step.OPEN_SRC);
        try {
            return task.readFsXattr(second);
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
        Fd second = openByPath(task.destinationParent(relPath), relPath, Step.OPEN_DST);
        try {
            return task.setFsXattr(second, relPath, wanted, withLocks);
        } finally {
            closeTimed(second);
        }
    }

    @Override
    public List<Xattr> readXattrs(Fd src, byte[] relPath) {
        if (policy.copiesNothing()) return List.of();
        byte[] sourcePath = task.options().sourcePath(relPath);
        byte[] path = throughParent(task.sourceParent(sourcePath), sourcePath);
        List<byte[]> names = steps.time(Step.XATTR_LIST, () -> Posix.llistxattr(path, buffer));
        return task.keptXattrs(names, name -> Posix.lgetxattr(path, name, buffer));
    }

    @Override
    public void writeXattrs(Fd dst, byte[] relPath, List<Xattr> xattrs) {
        byte[] path = throughParent(task.destinationParent(relPath), relPath);
        for (Xattr x : xattrs) steps.time(Step.XATTR_SET, () -> Posix.lsetxattr(path, x.name(), x.value()));
    }

    /** The second open: the name looked up again in its open parent (the root itself for the root). */
    private Fd openByPath(Fd parent, byte[] relPath, Step step) {
        return steps.time(step, () -> Posix.openat(parent, relPath.length == 0 ? DOT : PathBytes.name(relPath), SECOND_OPEN, 0));
    }

    private void closeTimed(Fd fd) {
        steps.time(Step.CLOSE, fd::close);
    }

    /** {@code /proc/self/fd/N/name}, N the open parent: the kernel looks the name up in that directory. */
    private static byte[] throughParent(Fd parent, byte[] relPath) {
        byte[] name = relPath.length == 0 ? DOT : PathBytes.name(relPath);
        return PathBytes.join(PathBytes.of("/proc/self/fd/" + parent.fd()), name);
    }
}

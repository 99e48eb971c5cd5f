package io.sparkdcp.copy;

import io.sparkdcp.copy.keep.MetadataAccess;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.copy.steps.Step;
import io.sparkdcp.copy.steps.StepRecorder;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.FsXattr;
import io.sparkdcp.posix.PathBytes;

import java.util.List;
import java.util.Locale;
import java.util.ServiceLoader;
import java.util.function.Function;

/**
 * The metadata ways of other modules ({@link MetadataIO.Way}: the bench's path way), found in the
 * jars of the JVM that runs the task, so that the product ships none of them.
 */
final class OtherWays {
    private OtherWays() {}

    /** This access's way, for one task's trees; a clear error where no jar here has it. */
    static MetadataIO open(MetadataAccess access, CopyOptions options, StepRecorder steps, DirectoryCache source,
                           DirectoryCache destination, FlagRefusals refusals) {
        String name = access.name().toLowerCase(Locale.ROOT);
        for (MetadataIO.Way way : ServiceLoader.load(MetadataIO.Way.class)) {
            if (way.name().equals(name)) return way.open(new Trees(options, steps, source, destination, refusals));
        }
        throw new IllegalStateException("the " + name + " way of copying metadata is the bench module's, "
                + "and its jar (bench/target/spark-dcp-bench-app.jar) is not on this JVM's class path");
    }

    private record Trees(CopyOptions options, StepRecorder steps, DirectoryCache source, DirectoryCache destination,
                         FlagRefusals refusals) implements MetadataIO.Task {
        @Override
        public Fd sourceParent(byte[] relPath) {
            return parent(source, relPath);
        }

        @Override
        public Fd destinationParent(byte[] relPath) {
            return parent(destination, relPath);
        }

        private static Fd parent(DirectoryCache tree, byte[] relPath) {
            return relPath.length == 0 ? tree.root() : tree.get(PathBytes.parent(relPath));
        }

        @Override
        public FsXattr readFsXattr(Fd fd) {
            return FdMetadataIO.projectOrNull(fd, steps);
        }

        @Override
        public FsXattr setFsXattr(Fd dst, byte[] relPath, WantedFsXattr wanted, boolean withLocks) {
            FsXattr current = steps.time(Step.IOCTL_GET, () -> FdMetadataIO.readDestination(dst, relPath, wanted, refusals));
            if (current == null) return null;
            return steps.time(Step.IOCTL_SET, () -> refusals.set(dst, relPath, current, wanted.applyTo(current, withLocks), true));
        }

        @Override
        public List<Xattr> keptXattrs(List<byte[]> names, Function<byte[], byte[]> get) {
            return FdMetadataIO.readKept(names, options.xattrs(), steps, get);
        }
    }
}

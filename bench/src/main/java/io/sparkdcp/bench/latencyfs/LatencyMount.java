package io.sparkdcp.bench.latencyfs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * A {@link LatencyFs} mounted in this JVM over a backing directory and served by a
 * {@link FuseLoop}; closing unmounts it (a lazy fusermount -u, else a lazy umount). Needs
 * /dev/fuse, libfuse2 and, for ioctls and owners, root.
 */
public final class LatencyMount implements AutoCloseable {
    private static final long MOUNT_WAIT_NANOS = 10_000_000_000L;

    /** Threads serving requests: more than the requests a bench keeps in flight at once. */
    private static final int WORKERS = 64;
    private static final long FINISH_WAIT_MILLIS = 5_000;

    private final LatencyFs fs;
    private final FuseLoop loop;
    private final Path mountPoint;
    private boolean closed;

    private LatencyMount(LatencyFs fs, FuseLoop loop, Path mountPoint) {
        this.fs = fs;
        this.loop = loop;
        this.mountPoint = mountPoint;
    }

    public static LatencyMount mount(Path backing, Path mountPoint, LatencyProfile profile) {
        Path mp = mountPoint.toAbsolutePath();
        if (isMounted(mp)) throw new IllegalStateException(mp + " is already a mount point");
        LatencyFs fs = new LatencyFs(backing.toAbsolutePath().toString(), profile);
        // use_ino: the inode numbers of the file system below, so hard links stay recognisable;
        // hard_remove: no .fuse_hidden files when an open file is unlinked.
        String options = String.format(Locale.ROOT, "use_ino,hard_remove,big_writes,max_write=131072,fsname=latencyfs,"
                + "entry_timeout=%s,attr_timeout=%s,negative_timeout=%s", profile.entryTimeoutSeconds(),
                profile.attrTimeoutSeconds(), profile.entryTimeoutSeconds());
        FuseLoop loop;
        try {
            loop = FuseLoop.start(fs.operations(), new String[] {"latencyfs", "-f", mp.toString(), "-o", options}, WORKERS);
        } catch (RuntimeException e) {
            fs.closeBacking();
            throw e;
        }
        long deadline = System.nanoTime() + MOUNT_WAIT_NANOS;
        while (!isMounted(mp)) {
            if (System.nanoTime() > deadline) {
                unmount(mp);
                loop.finish(FINISH_WAIT_MILLIS);
                fs.closeBacking();
                throw new IllegalStateException("FUSE mount on " + mp + " did not appear (is libfuse2 installed, /dev/fuse there?)");
            }
            sleepMillis(20);
        }
        return new LatencyMount(fs, loop, mp);
    }

    public Path dir() { return mountPoint; }

    public LatencyFs fs() { return fs; }

    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        unmount(mountPoint);
        loop.finish(FINISH_WAIT_MILLIS);
        fs.closeBacking();
    }

    private static void unmount(Path mountPoint) {
        run(List.of("fusermount", "-u", "-z", mountPoint.toString()));
        if (isMounted(mountPoint)) run(List.of("umount", "-l", mountPoint.toString()));
    }

    static boolean isMounted(Path mountPoint) {
        try (Stream<String> lines = Files.lines(Path.of("/proc/mounts"))) {
            String wanted = mountPoint.toString().replace(" ", "\\040");
            return lines.map(l -> l.split(" ")[1]).anyMatch(wanted::equals);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void run(List<String> argv) {
        try {
            new ProcessBuilder(new ArrayList<>(argv)).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start().waitFor();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void sleepMillis(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while mounting", e);
        }
    }
}

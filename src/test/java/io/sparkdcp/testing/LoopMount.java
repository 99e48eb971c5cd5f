package io.sparkdcp.testing;

import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A fresh file system (XFS unless asked otherwise) on a sparse loop image, for tests that need real project IDs,
 * xattrs and holes. Lives in {@code BASE/<name>-p<pid>-<random>/} as {@code image.fs} and
 * {@code mnt/}; the pid lets a later JVM tell a killed run's leftovers from a live run's mounts.
 */
public final class LoopMount implements AutoCloseable {
    public static final Path BASE = Path.of("/tmp/spark-dcp-test-mounts");
    /** mkfs.xfs refuses smaller file systems; the image is sparse, so size costs nothing. */
    public static final long MIN_SIZE_MIB = 300;

    private static final Pattern HOME_NAME = Pattern.compile(".+-p(\\d+)-[0-9a-f]+");
    private static final Pattern VALID_NAME = Pattern.compile("[A-Za-z0-9._-]+");
    private static final Set<LoopMount> OPEN = ConcurrentHashMap.newKeySet();
    private static boolean staleCleared;

    private final Path home;
    private final Path image;
    private final Path dir;
    private boolean closed;

    private LoopMount(Path home) {
        this.home = home;
        this.image = home.resolve("image.fs");
        this.dir = home.resolve("mnt");
    }

    /**
     * Skips the calling test unless it runs as root with mkfs.xfs installed; under CI=true
     * the same condition fails instead, so a CI job cannot pass by skipping everything.
     */
    public static void requireRootAndXfs() {
        boolean ready = Posix.geteuid() == 0 && Commands.available("mkfs.xfs") && Commands.available("xfs_io");
        String reason = "needs root and mkfs.xfs (XFS on a loop device)";
        if ("true".equals(System.getenv("CI"))) {
            if (!ready) throw new AssertionError(reason + ", and CI=true forbids skipping");
        } else {
            Assumptions.assumeTrue(ready, reason);
        }
    }

    /** Makes, formats and mounts an XFS image of sizeMiB; mkfsOptions go to mkfs.xfs as they are. */
    public static LoopMount create(String name, long sizeMiB, String... mkfsOptions) {
        List<String> mkfs = new ArrayList<>(List.of("mkfs.xfs", "-q"));
        mkfs.addAll(List.of(mkfsOptions));
        return mountNew(name, sizeMiB, mkfs);
    }

    /**
     * An ext4 image: a second kind of file system, without project IDs (this kernel has no quota
     * support); mkfsOptions go to mkfs.ext4 as they are ({@code -I 128}: times in whole seconds).
     */
    public static LoopMount createExt4(String name, long sizeMiB, String... mkfsOptions) {
        List<String> mkfs = new ArrayList<>(List.of("mkfs.ext4", "-q", "-F"));
        mkfs.addAll(List.of(mkfsOptions));
        return mountNew(name, sizeMiB, mkfs);
    }

    private static LoopMount mountNew(String name, long sizeMiB, List<String> mkfsCommand) {
        if (!VALID_NAME.matcher(name).matches()) throw new IllegalArgumentException("mount name must be [A-Za-z0-9._-]+: " + name);
        if (sizeMiB < MIN_SIZE_MIB) throw new IllegalArgumentException("XFS needs at least " + MIN_SIZE_MIB + " MiB, asked " + sizeMiB);
        clearStaleMountsOnce();
        String homeName = name + "-p" + ProcessHandle.current().pid() + "-" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 1);
        LoopMount mount = new LoopMount(BASE.resolve(homeName));
        try {
            // Mount points are matched by name against /proc/mounts, so BASE must hold no symlink.
            if (!BASE.getParent().toRealPath().equals(BASE.getParent())) throw new IllegalStateException(BASE.getParent() + " is a symlink");
            Files.createDirectories(mount.dir);
            try (RandomAccessFile file = new RandomAccessFile(mount.image.toFile(), "rw")) {
                file.setLength(sizeMiB << 20);
            }
            List<String> mkfs = new ArrayList<>(mkfsCommand);
            mkfs.add(mount.image.toString());
            Commands.run(mkfs.toArray(String[]::new));
            Commands.run("mount", "-o", "loop", mount.image.toString(), mount.dir.toString());
        } catch (IOException | RuntimeException e) {
            mount.close();
            throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
        }
        OPEN.add(mount);
        return mount;
    }

    /** For benchmarks: without reflink, a copy's data really moves instead of being shared. */
    public static LoopMount createWithoutReflink(String name, long sizeMiB) {
        return create(name, sizeMiB, "-m", "reflink=0");
    }

    /** The mount point: the root directory of the new file system. */
    public Path dir() { return dir; }

    public byte[] dirBytes() { return PathBytes.of(dir.toString()); }

    /** Unmounts (lazily when busy) and deletes the image. Closing twice is harmless. */
    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        OPEN.remove(this);
        unmount(dir);
        deleteHome(home);
    }

    private static void unmount(Path mountPoint) {
        if (!isMounted(mountPoint)) return;
        if (Commands.tryRun("umount", mountPoint.toString()).exitCode() == 0) return;
        // Busy (a forgotten descriptor, a shell inside): detach now, the kernel frees it later.
        Commands.run("umount", "-l", mountPoint.toString());
    }

    private static void deleteHome(Path home) {
        try {
            Files.deleteIfExists(home.resolve("image.fs"));
            Files.deleteIfExists(home.resolve("mnt"));
            Files.deleteIfExists(home);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + home, e);
        }
    }

    private static boolean isMounted(Path mountPoint) {
        return mountPoints().contains(mountPoint.toString());
    }

    /** Mount points from /proc/mounts, octal escapes (\040 for a space) decoded. */
    private static List<String> mountPoints() {
        try (Stream<String> lines = Files.lines(Path.of("/proc/mounts"))) {
            return lines.map(line -> line.split(" ")[1]).map(LoopMount::unescapeOctal).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String unescapeOctal(String s) {
        Matcher m = Pattern.compile("\\\\([0-7]{3})").matcher(s);
        StringBuilder out = new StringBuilder();
        while (m.find()) m.appendReplacement(out, Matcher.quoteReplacement(String.valueOf((char) Integer.parseInt(m.group(1), 8))));
        return m.appendTail(out).toString();
    }

    /** First use in this JVM: unmount and delete what runs that are no longer alive left behind. */
    private static synchronized void clearStaleMountsOnce() {
        if (staleCleared) return;
        staleCleared = true;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> List.copyOf(OPEN).forEach(LoopMount::closeQuietly), "xfs-mount-cleanup"));
        String prefix = BASE + "/";
        for (String mountPoint : mountPoints()) {
            if (!mountPoint.startsWith(prefix)) continue;
            Path home = Path.of(mountPoint).getParent();
            if (isLeftover(home)) unmount(Path.of(mountPoint));
        }
        if (!Files.isDirectory(BASE)) return;
        try (Stream<Path> homes = Files.list(BASE)) {
            homes.filter(LoopMount::isLeftover).filter(home -> !isMounted(home.resolve("mnt"))).forEach(LoopMount::deleteHome);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean isLeftover(Path home) {
        Matcher m = HOME_NAME.matcher(home.getFileName().toString());
        if (!m.matches() || !home.getParent().equals(BASE)) return false;
        return ProcessHandle.of(Long.parseLong(m.group(1))).map(p -> !p.isAlive()).orElse(true);
    }

    private static void closeQuietly(LoopMount mount) {
        try {
            mount.close();
        } catch (RuntimeException ignored) {
            // JVM shutdown: the next run's stale-mount sweep finishes the job.
        }
    }

    @Override
    public String toString() {
        return "LoopMount[" + dir + "]";
    }
}

package io.sparkdcp.bench.scale;

import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.FsXattr;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.NativeBuffer;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.PosixException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.IntStream;

/**
 * A tree of many small files in many directories, the shape of an HPC project area:
 * {@code gNNN/dNNNN/fNNNNNNN}, {@code filesPerDir} files per directory and {@code dirsPerGroup}
 * directories per group. Half the files are empty, the others hold 1 to 256 bytes. The root gets
 * project 4242 with PROJINHERIT where the file system has project IDs, so every entry inherits it.
 * Written by several threads, one directory at a time.
 *
 * @param entries every entry, directories and the root included (approximately: whole directories)
 */
public record ScaleTree(long entries, int filesPerDir, int dirsPerGroup) {
    public static final int PROJECT = 4242;

    public ScaleTree {
        if (entries < 1 || filesPerDir < 1 || dirsPerGroup < 1) throw new IllegalArgumentException("entries, files per directory and directories per group must be positive");
    }

    public int directories() {
        return (int) Math.max(1, (entries - 1) / (filesPerDir + 1 + 1.0 / dirsPerGroup));
    }

    public int groups() {
        return (directories() + dirsPerGroup - 1) / dirsPerGroup;
    }

    /** Entries this shape really has: the root, the groups, the directories and their files. */
    public long actualEntries() {
        return 1L + groups() + directories() + (long) directories() * filesPerDir;
    }

    /** Writes the tree into {@code root}, which must not exist. */
    public void generate(Path root, int threads) throws IOException {
        Files.createDirectory(root);
        setProjectIfSupported(root);
        for (int g = 0; g < groups(); g++) Files.createDirectory(root.resolve(String.format("g%03d", g)));
        java.util.concurrent.ForkJoinPool pool = new java.util.concurrent.ForkJoinPool(threads);
        try {
            pool.submit(() -> IntStream.range(0, directories()).parallel().forEach(d -> fillDirectory(root, d))).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("generation interrupted", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IOException("generation failed: " + e.getCause(), e.getCause());
        } finally {
            pool.shutdown();
        }
    }

    private void fillDirectory(Path root, int d) {
        byte[] group = PathBytes.of(root.resolve(String.format("g%03d", d / dirsPerGroup)).toString());
        byte[] name = PathBytes.of(String.format("d%04d", d));
        try (Fd parent = Posix.open(group, Linux.O_RDONLY | Linux.O_DIRECTORY)) {
            Posix.mkdirat(parent, name, 0755);
            NativeBuffer data = new NativeBuffer(256);
            try (Fd dir = Posix.openat(parent, name, Linux.O_RDONLY | Linux.O_DIRECTORY, 0)) {
                for (int f = 0; f < filesPerDir; f++) {
                    long n = (long) d * filesPerDir + f;
                    try (Fd file = Posix.openat(dir, PathBytes.of(String.format("f%07d", n)),
                            Linux.O_WRONLY | Linux.O_CREAT | Linux.O_EXCL, 0644)) {
                        int size = n % 2 == 0 ? 0 : (int) (1 + (n * 37) % 256);
                        if (size > 0) Posix.pwrite(file, data, 0, size, 0);
                    }
                }
            }
        }
    }

    private static void setProjectIfSupported(Path root) {
        try (Fd fd = Posix.open(PathBytes.of(root.toString()), Linux.O_RDONLY | Linux.O_DIRECTORY)) {
            FsXattr now = Posix.getFsXattr(fd);
            Posix.setFsXattr(fd, now.withProject(PROJECT, true));
        } catch (PosixException e) {
            // No project IDs here (not XFS): the tree is still a fair walk and copy workload.
        }
    }
}

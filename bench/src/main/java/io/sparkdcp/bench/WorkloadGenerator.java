package io.sparkdcp.bench;

import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.FsXattr;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

/** Writes a {@link Workload} into a new directory. Project IDs need a file system that has them (XFS). */
public final class WorkloadGenerator {
    private static final int DIFFERING_DIR_PROJECT = 5000;
    private static final int DIFFERING_FILE_PROJECT = 7000;

    private WorkloadGenerator() {}

    public static void generate(Workload w, Path root) throws IOException {
        Files.createDirectory(root);
        setProject(root, Workload.ROOT_PROJECT);
        SplittableRandom random = new SplittableRandom(42);
        byte[] small = new byte[w.smallFileBytes()];
        int fileNumber = 0;
        for (int d = 0; d < w.dirs(); d++) {
            Path dir = Files.createDirectory(root.resolve(String.format("d%04d", d)));
            // Created under a PROJINHERIT parent: already 4242 with PROJINHERIT, unless changed here.
            if (d % w.differingDirEvery() == w.differingDirEvery() - 1) setProject(dir, DIFFERING_DIR_PROJECT + d);
            for (int f = 0; f < w.filesPerDir(); f++, fileNumber++) {
                random.nextBytes(small);
                Path file = Files.write(dir.resolve(String.format("f%05d.dat", fileNumber)), small);
                if (fileNumber % w.differingFileEvery() == w.differingFileEvery() - 1) setProject(file, DIFFERING_FILE_PROJECT);
                if (fileNumber % w.xattrEvery() == 0) setXattr(file, "user.bench", "value " + fileNumber);
            }
        }
        if (w.largeFiles() == 0) return;
        Path large = Files.createDirectory(root.resolve("large"));
        byte[] block = new byte[1 << 20];
        for (int i = 0; i < w.largeFiles(); i++) {
            try (OutputStream out = Files.newOutputStream(large.resolve("large-" + i + ".bin"))) {
                for (long left = w.largeFileBytes(); left > 0; left -= block.length) {
                    random.nextBytes(block);
                    out.write(block, 0, (int) Math.min(block.length, left));
                }
            }
        }
    }

    /** Project ID and PROJINHERIT (PROJINHERIT only matters on directories), through one descriptor. */
    static void setProject(Path path, int project) {
        try (Fd fd = Posix.open(PathBytes.of(path.toString()), Linux.O_RDONLY)) {
            FsXattr now = Posix.getFsXattr(fd);
            Posix.setFsXattr(fd, now.withProject(project, Files.isDirectory(path)));
        }
    }

    private static void setXattr(Path path, String name, String value) {
        try (Fd fd = Posix.open(PathBytes.of(path.toString()), Linux.O_RDONLY)) {
            Posix.fsetxattr(fd, name.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8));
        }
    }
}

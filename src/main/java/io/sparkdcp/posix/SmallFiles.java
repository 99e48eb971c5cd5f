package io.sparkdcp.posix;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;

/**
 * Whole small files named by bytes (rule files, the JSON report), where java.nio cannot go: a path
 * that is not UTF-8 has no java.nio.file.Path in a UTF-8 JVM.
 */
public final class SmallFiles {
    private static final int CHUNK = 1 << 16;

    private SmallFiles() {}

    /** The file's bytes (symlinks followed, as any program reads a file it is given). */
    public static byte[] read(byte[] path) {
        NativeBuffer buf = new NativeBuffer(CHUNK);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (Fd fd = Posix.open(path, Linux.O_RDONLY)) {
            for (long offset = 0; ; ) {
                int n = Posix.pread(fd, buf, CHUNK, offset);
                if (n == 0) return out.toByteArray();
                out.write(buf.copyOut(0, n), 0, n);
                offset += n;
            }
        }
    }

    /**
     * Replaces the file with content at once: written beside it under a temporary name, then renamed
     * over it, so a reader sees the old file or the whole new one. Created with mode 0666 less the umask.
     */
    public static void replace(byte[] path, byte[] content) {
        byte[] name = PathBytes.name(path);
        byte[] temporary = temporaryName(name);
        try (Fd dir = Posix.open(directoryOf(path), Linux.O_RDONLY | Linux.O_DIRECTORY)) {
            boolean renamed = false;
            try {
                try (Fd file = Posix.openat(dir, temporary, Linux.O_WRONLY | Linux.O_CREAT | Linux.O_EXCL | Linux.O_NOFOLLOW, 0666)) {
                    write(file, content);
                }
                Posix.renameat(dir, temporary, dir, name);
                renamed = true;
            } finally {
                if (!renamed) removeQuietly(dir, temporary);
            }
        }
    }

    /**
     * Whether a file could be made beside path: one is created under a temporary name and removed
     * again. Throws the PosixException of the directory's open or of the create.
     */
    public static void probe(byte[] path) {
        byte[] temporary = temporaryName(PathBytes.name(path));
        try (Fd dir = Posix.open(directoryOf(path), Linux.O_RDONLY | Linux.O_DIRECTORY);
             Fd file = Posix.openat(dir, temporary, Linux.O_WRONLY | Linux.O_CREAT | Linux.O_EXCL | Linux.O_NOFOLLOW, 0666)) {
            removeQuietly(dir, temporary);
        }
    }

    /** The directory holding path: "." for a bare name, "/" for a name in it. */
    public static byte[] directoryOf(byte[] path) {
        int slash = path.length - PathBytes.name(path).length - 1;
        if (slash < 0) return PathBytes.of(".");
        return slash == 0 ? PathBytes.of("/") : Arrays.copyOf(path, slash);
    }

    private static void write(Fd file, byte[] content) {
        NativeBuffer buf = new NativeBuffer(CHUNK);
        for (int offset = 0; offset < content.length; ) {
            int length = Math.min(CHUNK, content.length - offset);
            buf.copyIn(content, offset, length);
            for (int done = 0; done < length; ) done += Posix.pwrite(file, buf, done, length - done, offset + done);
            offset += length;
        }
    }

    /** ".NAME.PID.NANOS.tmp": hidden, and this run's own. */
    private static byte[] temporaryName(byte[] name) {
        byte[] tail = PathBytes.of("." + ProcessHandle.current().pid() + "." + Long.toHexString(System.nanoTime()) + ".tmp");
        byte[] out = new byte[1 + name.length + tail.length];
        out[0] = '.';
        System.arraycopy(name, 0, out, 1, name.length);
        System.arraycopy(tail, 0, out, 1 + name.length, tail.length);
        return out;
    }

    private static void removeQuietly(Fd dir, byte[] name) {
        try {
            Posix.unlinkat(dir, name, false);
        } catch (PosixException e) {
            // never created, or gone: nothing of ours is left
        }
    }
}

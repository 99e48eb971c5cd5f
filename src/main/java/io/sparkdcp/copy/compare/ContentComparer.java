package io.sparkdcp.copy.compare;

import io.sparkdcp.copy.steps.Step;
import io.sparkdcp.copy.steps.StepRecorder;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.NativeBuffer;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.Errno;
import io.sparkdcp.posix.PosixException;
import io.sparkdcp.walk.Entry;

import java.util.Arrays;
import java.util.zip.CRC32C;

/** Reads two open files to compare their bytes, or to checksum one (CRC32C). Timed as the verify step. */
public final class ContentComparer {
    private static final int BLOCK = 1 << 20;

    private NativeBuffer a;
    private NativeBuffer b;

    /** Whether the first size bytes of both files are equal (and neither ends early). */
    public boolean equal(Fd x, Fd y, long size, StepRecorder steps) {
        return equal(x, y, 0, size, steps);
    }

    /** Whether the length bytes from offset are equal in both files (and neither ends early). */
    public boolean equal(Fd x, Fd y, long offset, long length, StepRecorder steps) {
        return steps.time(Step.VERIFY, () -> {
            buffers();
            long end = offset + length;
            for (long off = offset; off < end; ) {
                int want = (int) Math.min(BLOCK, end - off);
                int n = readFully(x, a, want, off);
                if (n != want || readFully(y, b, want, off) != want) return false;
                if (!Arrays.equals(a.copyOut(0, n), b.copyOut(0, n))) return false;
                off += n;
            }
            return true;
        });
    }

    /**
     * --verify: re-reads both sides and compares CRC32C; a mismatch throws (the caller then makes
     * sure the copy does not look complete).
     */
    public void verify(Entry e, Fd src, Fd dst, StepRecorder steps) {
        long size = e.stat().size();
        long want = crc32c(src, size, steps);
        long got = crc32c(dst, size, steps);
        if (want < 0 || want != got)
            throw new PosixException("verify", Errno.EIO, e.path(), want < 0
                    ? "the source became shorter than " + size + " bytes during the copy"
                    : String.format("CRC32C of the copy %08x differs from the source's %08x", got, want));
        if (readFully(src, a, 1, size) > 0)
            throw new PosixException("verify", Errno.EIO, e.path(), "the source grew past " + size + " bytes during the copy");
    }

    /** CRC32C of the first size bytes; -1 when the file is shorter. */
    long crc32c(Fd fd, long size, StepRecorder steps) {
        return steps.time(Step.VERIFY, () -> {
            buffers();
            CRC32C crc = new CRC32C();
            for (long off = 0; off < size; ) {
                int want = (int) Math.min(BLOCK, size - off);
                int n = readFully(fd, a, want, off);
                if (n != want) return -1L;
                crc.update(a.copyOut(0, n));
                off += n;
            }
            return crc.getValue();
        });
    }

    private void buffers() {
        if (a == null) {
            a = new NativeBuffer(BLOCK);
            b = new NativeBuffer(BLOCK);
        }
    }

    /** Reads want bytes at off into buf's start, fewer only at end of file. */
    private static int readFully(Fd fd, NativeBuffer buf, int want, long off) {
        int done = 0;
        while (done < want) {
            int n = Posix.preadInto(fd, buf, done, want - done, off + done);
            if (n == 0) break;
            done += n;
        }
        return done;
    }
}

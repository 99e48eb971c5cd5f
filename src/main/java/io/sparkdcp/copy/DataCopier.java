package io.sparkdcp.copy;

import io.sparkdcp.copy.throttle.RateLimiter;
import io.sparkdcp.posix.Errno;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.NativeBuffer;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.PosixException;

/**
 * Copies bytes between two open files at equal offsets: copy_file_range first (the kernel clones,
 * splices or falls back itself); where it refuses the pair (EXDEV between two mounts, the usual case
 * of a copy from one file system to another) sendfile, the same splice in the kernel from the
 * source's offset to the destination's file offset; read/write through one buffer only when neither
 * is possible. Holes stay holes: a file with fewer blocks than its size is copied extent by extent
 * (SEEK_DATA/SEEK_HOLE). Each call moves the whole rest of the extent unless --bwlimit caps it.
 * The bytes of each call go to progress as they are written, so a large file's bytes move while it is copied.
 */
final class DataCopier {
    private static final int BUFFER_SIZE = 1 << 20;
    /** Under --bwlimit each call moves at most 10 ms of the rate, from 64 KiB to the buffer's 1 MiB. */
    private static final long MIN_THROTTLED_CALL = 64 << 10;
    /** Unlimited, a call moves at most this much: progress moves at least this often in a large chunk. */
    private static final long MAX_CALL = 16 << 20;

    /** The --bwlimit bucket each call takes its bytes from first; null when bytes are not limited. */
    private final RateLimiter bytes;
    private final ProgressRecorder progress;
    private NativeBuffer buffer;
    private boolean copyFileRangeRefused;
    /** Bytes written by this copier so far, for the engine to settle each entry's progress. */
    private long written;
    private boolean sendfileRefused;

    DataCopier(RateLimiter bytes, ProgressRecorder progress) {
        this.bytes = bytes;
        this.progress = progress;
    }

    /** Every byte this copier has written, what went to progress. */
    long written() {
        return written;
    }

    /**
     * Copies [offset, offset + length) of src, data extents only when sparse; returns bytes written.
     * A source that ends early fails here; one that grew or changed is found by the caller's fstat
     * after the data ({@link CopyContext#requireUnchanged}).
     */
    long copyRange(Fd src, Fd dst, long offset, long length, boolean sparse) {
        if (length <= 0) return 0;
        if (!sparse) return copyExtent(src, dst, offset, length);
        long end = offset + length;
        long copied = 0;
        long pos = offset;
        while (pos < end) {
            long data = Posix.seek(src, pos, Linux.SEEK_DATA);
            if (data < 0 || data >= end) break;
            long hole = Posix.seek(src, data, Linux.SEEK_HOLE);
            long extentEnd = hole < 0 ? end : Math.min(hole, end);
            copied += copyExtent(src, dst, data, extentEnd - data);
            pos = extentEnd;
        }
        return copied;
    }

    /** The bytes {@link #copyRange} copies of a whole sparse file: its data extents, found without reading them. */
    static long dataBytes(Fd file, long size) {
        long data = 0;
        long pos = 0;
        while (pos < size) {
            long start = Posix.seek(file, pos, Linux.SEEK_DATA);
            if (start < 0 || start >= size) break;
            long hole = Posix.seek(file, start, Linux.SEEK_HOLE);
            long end = hole < 0 ? size : Math.min(hole, size);
            data += end - start;
            pos = end;
        }
        return data;
    }

    /** Copies length bytes at offset. */
    private long copyExtent(Fd src, Fd dst, long offset, long length) {
        long done = 0;
        boolean dstAtOffset = false; // dst's file offset is offset + done, where sendfile writes
        while (done < length) {
            long at = offset + done;
            long want = Math.min(length - done, MAX_CALL);
            if (bytes != null) {
                want = Math.min(want, Math.max(MIN_THROTTLED_CALL, Math.min(BUFFER_SIZE, (long) (bytes.rate() / 100))));
                bytes.acquire(want);
            }
            long n = copyFileRangeRefused ? -1 : Posix.copyFileRange(src, dst, at, want);
            if (n < 0) copyFileRangeRefused = true;
            if (n < 0 && !sendfileRefused) {
                if (!dstAtOffset) Posix.seek(dst, at, Linux.SEEK_SET);
                n = Posix.sendfile(src, dst, at, want);
                dstAtOffset = n >= 0;
                if (n < 0) sendfileRefused = true;
            }
            if (n < 0) n = readWrite(src, dst, at, want);
            if (n == 0) throw shrank(src, at);
            done += n;
            written += n;
            progress.done(0, n);
        }
        return done;
    }

    private long readWrite(Fd src, Fd dst, long offset, long length) {
        if (buffer == null) buffer = new NativeBuffer(BUFFER_SIZE);
        int n = Posix.pread(src, buffer, (int) Math.min(length, buffer.capacity()), offset);
        int written = 0;
        while (written < n) written += Posix.pwrite(dst, buffer, written, n - written, offset + written);
        return n;
    }

    private static PosixException shrank(Fd src, long at) {
        return new PosixException("read", Errno.EIO, src.path(),
                "source ended at byte " + at + ", before the size the walk saw: it changed during the copy");
    }
}

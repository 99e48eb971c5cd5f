package io.sparkdcp.bench.latencyfs;

import jnr.ffi.LibraryLoader;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;
import jnr.ffi.types.size_t;
import jnr.ffi.types.ssize_t;
import jnr.ffi.types.u_int64_t;

/**
 * The calls the passthrough makes on the directory below with FUSE's own buffers, so data and
 * xattr values are not copied through Java arrays. Return -1 and set errno on failure.
 */
public interface BackingLibC {
    BackingLibC LIBC = LibraryLoader.create(BackingLibC.class).load("c");
    Runtime RUNTIME = Runtime.getRuntime(LIBC);

    @ssize_t long pread(int fd, Pointer buf, @size_t long count, long offset);

    @ssize_t long pwrite(int fd, Pointer buf, @size_t long count, long offset);

    int ioctl(int fd, @u_int64_t long request, Pointer arg);

    @ssize_t long lgetxattr(String path, String name, Pointer value, @size_t long size);

    int lsetxattr(String path, String name, Pointer value, @size_t long size, int flags);

    @ssize_t long llistxattr(String path, Pointer list, @size_t long size);

    int lremovexattr(String path, String name);

    int ftruncate(int fd, long length);

    int fsync(int fd);

    static int errno() {
        return RUNTIME.getLastError();
    }
}

package io.sparkdcp.posix;

import jnr.ffi.Pointer;
import jnr.ffi.annotations.In;
import jnr.ffi.annotations.Out;
import jnr.ffi.types.off_t;
import jnr.ffi.types.size_t;
import jnr.ffi.types.ssize_t;
import jnr.ffi.types.u_int64_t;

/**
 * The libc calls every copy makes: a copy of files and directories binds this alone. The nested
 * groups hold calls only some runs make and are bound by {@link Posix} on their first use: jnr-ffi
 * generates one class with every method of an interface when it binds it (about 2 ms of CPU time per
 * method, a third of an empty copy's fixed cost when every call was bound at start).
 * Paths and names are NUL-terminated byte arrays ({@link PathBytes#cString}); large buffers are
 * direct {@link Pointer}s so nothing is copied twice. Public only because jnr-ffi generates the
 * implementations in another class loader; everything outside this package calls {@link Posix}.
 */
public interface LibC {
    int openat(int dirfd, @In byte[] path, int flags, int mode);

    int close(int fd);

    int fcntl(int fd, int cmd, int arg);

    int statx(int dirfd, @In byte[] path, int flags, int mask, @Out byte[] statxBuf);

    int ioctl(int fd, @u_int64_t long request, @In @Out byte[] arg);

    @ssize_t long flistxattr(int fd, Pointer list, @size_t long size);

    @ssize_t long fgetxattr(int fd, @In byte[] name, Pointer value, @size_t long size);

    int fsetxattr(int fd, @In byte[] name, @In byte[] value, @size_t long size, int flags);

    int fchown(int fd, int uid, int gid);

    int fchmod(int fd, int mode);

    /** times: atime sec, atime nsec, mtime sec, mtime nsec (two struct timespec). */
    int futimens(int fd, @In long[] times);

    @ssize_t long copy_file_range(int fdIn, @In @Out long[] offIn, int fdOut, @In @Out long[] offOut,
                                  @size_t long len, int flags);

    int flock(int fd, int operation);

    @ssize_t long getdents64(int fd, Pointer buf, @size_t long count);

    int mkdirat(int dirfd, @In byte[] path, int mode);

    /** Only for openat2, which glibc 2.36 does not wrap. */
    long syscall(long number, int dirfd, @In byte[] path, @In byte[] openHow, @size_t long size);

    String strerror(int errnum);

    /**
     * The roots of every run are resolved by it: resolved gets PATH_MAX bytes, NUL-terminated; the
     * result is null on failure (errno set), else resolved itself.
     */
    Pointer realpath(@In byte[] path, @Out byte[] resolved);

    int geteuid();

    /** Every new file is linked into place (unnamed until complete), and hard links are made with it. */
    int linkat(int olddirfd, @In byte[] oldpath, int newdirfd, @In byte[] newpath, int flags);

    int getegid();

    /** Entries made or changed by name in their directory: symlinks, special files. */
    interface Names {
        int fchownat(int dirfd, @In byte[] path, int uid, int gid, int flags);

        int fchmodat(int dirfd, @In byte[] path, int mode, int flags);

        int utimensat(int dirfd, @In byte[] path, @In long[] times, int flags);

        int symlinkat(@In byte[] target, int newdirfd, @In byte[] linkpath);

        @ssize_t long readlinkat(int dirfd, @In byte[] path, @Out byte[] buf, @size_t long size);

        int mknodat(int dirfd, @In byte[] path, int mode, @u_int64_t long dev);
    }

    /** Extended attributes by path: the path way of copying them (the bench's path contender). */
    interface PathXattrs {
        @ssize_t long llistxattr(@In byte[] path, Pointer list, @size_t long size);

        @ssize_t long lgetxattr(@In byte[] path, @In byte[] name, Pointer value, @size_t long size);

        int lsetxattr(@In byte[] path, @In byte[] name, @In byte[] value, @size_t long size, int flags);
    }

    /** Data not moved by copy_file_range: sparse files, the fallbacks across file systems, comparing, --fsync. */
    interface Data {
        /** Reads in at *offset (advancing it, not in's file offset), writes at out's file offset. */
        @ssize_t long sendfile(int outFd, int inFd, @In @Out long[] offset, @size_t long count);

        @ssize_t long pread(int fd, Pointer buf, @size_t long count, @off_t long offset);

        @ssize_t long pwrite(int fd, Pointer buf, @size_t long count, @off_t long offset);

        @off_t long lseek(int fd, @off_t long offset, int whence);

        int ftruncate(int fd, @off_t long length);

        int fsync(int fd);

        int syncfs(int fd);
    }

    /** Removing and renaming: sync, replacing files, temporary names, clean-up after a failure. */
    interface Changes {
        int unlinkat(int dirfd, @In byte[] path, int flags);

        int renameat(int olddirfd, @In byte[] oldpath, int newdirfd, @In byte[] newpath);

        /** A temporary renamed to a name that must be free (flags RENAME_NOREPLACE); glibc 2.28 wraps it. */
        int renameat2(int olddirfd, @In byte[] oldpath, int newdirfd, @In byte[] newpath, int flags);

        int fremovexattr(int fd, @In byte[] name);
    }
}

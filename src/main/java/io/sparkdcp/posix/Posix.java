package io.sparkdcp.posix;

import jnr.ffi.LastError;
import jnr.ffi.Runtime;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

import static io.sparkdcp.posix.Linux.*;

/**
 * The only place that calls libc. Every call turns -1 into a {@link PosixException} naming the call,
 * the errno and the path, and retries EINTR/EAGAIN in one loop. Paths are byte arrays relative to
 * an open directory; nothing here follows a symlink unless a method says so.
 */
public final class Posix {
    private Posix() {}

    private static final LibC LIBC = LibCBinding.core();
    static final Runtime RUNTIME = Runtime.getRuntime(LIBC);

    // The calls only some runs make, each group bound on its first use (a class is initialised once,
    // by the first thread that needs it).
    private static final class Names { static final LibC.Names LIBC = LibCBinding.bind(LibC.Names.class); }

    private static final class PathXattrs { static final LibC.PathXattrs LIBC = LibCBinding.bind(LibC.PathXattrs.class); }

    private static final class Data { static final LibC.Data LIBC = LibCBinding.bind(LibC.Data.class); }

    private static final class Changes { static final LibC.Changes LIBC = LibCBinding.bind(LibC.Changes.class); }

    private static final byte[] EMPTY_C = {0};
    private static final byte[] DOT_C = {'.', 0};
    private static final byte[] PROC_SELF_FD_C = PathBytes.cString(PathBytes.of("/proc/self/fd"));
    private static volatile boolean openat2Missing;

    /** EAGAIN is retried this many times with a growing pause (about 1.3 s in all); EINTR always. */
    private static final int EAGAIN_RETRIES = 10;

    /*
     * The calls every file makes loop in place on retry (retryOrThrow to fail at once):
     *     while ((rc = LIBC.call(...)) == -1 && (again = retry(again)) >= 0) {}
     * The others pass a lambda to call or callOrErrno: under C1, which is all a local copy's JVM
     * runs, each capturing lambda costs an allocation through a slow VM call.
     */

    /** Runs a call until it is not interrupted; -1 becomes an exception. */
    private static long call(String name, byte[] path, LongSupplier syscall) {
        long rc = callOrErrno(syscall);
        if (rc < 0) throw failure(name, (int) -rc, path);
        return rc;
    }

    /** Like {@link #call} but returns -errno instead of throwing, for outcomes the caller expects. */
    private static long callOrErrno(LongSupplier syscall) {
        long rc;
        int again = 0;
        while ((rc = syscall.getAsLong()) == -1 && (again = retry(again)) >= 0) {}
        return orErrno(rc);
    }

    /**
     * After a call returned -1: whether to make it again, as the number of EAGAINs it has had then
     * (EINTR always; EAGAIN after a growing pause, EAGAIN_RETRIES times at most), or -1 when not.
     */
    private static int retry(int again) {
        int errno = errno();
        if (errno == Errno.EINTR) return again;
        if (errno != Errno.EAGAIN || again == EAGAIN_RETRIES) return -1;
        pause(again);
        return again + 1;
    }

    /**
     * As {@link #retry}, for a call that reads data from fd: the one place where a descriptor opened
     * O_NONBLOCK (so that a FIFO swapped in for a file cannot block its open) becomes blocking. Local
     * file systems ignore the flag for a file's data; one that honours it (Lustre, waiting for no lock;
     * some FUSE or network file systems) answers EAGAIN, and then the flag is cleared, once, and the
     * call made again at once. Every call here is pread, copy_file_range, sendfile or lseek, which a pipe, socket
     * or terminal refuses before it could wait (ESPIPE, EINVAL), so no read blocks on one of those.
     */
    private static int retryRead(Fd fd, int again) {
        if (errno() != Errno.EAGAIN || !fd.nonBlocking()) return retry(again);
        int flags = fd.clearNonBlocking();
        setStatusFlags(fd, flags);
        return again;
    }

    /** As {@link #callOrErrno}, for a call that reads fd's data ({@link #retryRead}). */
    private static long readOrErrno(Fd fd, LongSupplier syscall) {
        long rc;
        int again = 0;
        while ((rc = syscall.getAsLong()) == -1 && (again = retryRead(fd, again)) >= 0) {}
        return orErrno(rc);
    }

    /** As {@link #call}, for a call that reads fd's data ({@link #retryRead}). */
    private static long read(String name, Fd fd, LongSupplier syscall) {
        long rc = readOrErrno(fd, syscall);
        if (rc < 0) throw failure(name, (int) -rc, fd.path());
        return rc;
    }

    /** As {@link #retry}, but a call not to be made again fails here, named with its path. */
    private static int retryOrThrow(int again, String name, byte[] path) {
        int next = retry(again);
        if (next < 0) throw failure(name, errno(), path);
        return next;
    }

    /** A call's result, or -errno for its -1. */
    private static long orErrno(long rc) {
        return rc == -1 ? -errno() : rc;
    }

    /** The errno of this thread's last call, as jnr-ffi saved it. */
    private static int errno() {
        return LastError.getLastError(RUNTIME);
    }

    private static void pause(int attempt) {
        try {
            Thread.sleep(1L << attempt);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public static PosixException failure(String name, int errno, byte[] path) {
        return new PosixException(name, errno, path, LIBC.strerror(errno));
    }

    // ---- descriptors --------------------------------------------------------------------------

    public static Fd openat(Fd dir, byte[] name, int flags, int mode) {
        byte[] c = PathBytes.cString(name);
        int fd;
        int again = 0;
        while ((fd = LIBC.openat(dir.fd(), c, flags | O_CLOEXEC, mode)) == -1) again = retryOrThrow(again, "openat", name);
        return new Fd(fd, name, flags);
    }

    /** openat, or null when it fails with the given errno (EEXIST for an exclusive create, say). */
    public static Fd openatUnless(int expectedErrno, Fd dir, byte[] name, int flags, int mode) {
        byte[] c = PathBytes.cString(name);
        long rc;
        int again = 0;
        while ((rc = LIBC.openat(dir.fd(), c, flags | O_CLOEXEC, mode)) == -1 && (again = retry(again)) >= 0) {}
        rc = orErrno(rc);
        if (rc == -expectedErrno) return null;
        if (rc < 0) throw failure("openat", (int) -rc, name);
        return new Fd((int) rc, name, flags);
    }

    /** Opens an absolute or cwd-relative path; used for the roots of a copy only. */
    public static Fd open(byte[] path, int flags) {
        byte[] c = PathBytes.cString(path);
        int fd = (int) call("open", path, () -> LIBC.openat(AT_FDCWD, c, flags | O_CLOEXEC, 0));
        return new Fd(fd, path);
    }

    /**
     * Opens a path below an open root without ever leaving it: no symlink is followed in any
     * component (openat2 RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS, or one O_NOFOLLOW openat per
     * component on kernels before 5.6).
     */
    public static Fd openBeneath(Fd root, byte[] relPath, int flags) {
        if (relPath.length == 0) return openat(root, relPath, flags | O_NOFOLLOW, 0);
        if (relPath.length >= PATH_MAX) return openBeneathInSteps(root, relPath, flags);
        if (!openat2Missing) {
            byte[] c = PathBytes.cString(relPath);
            byte[] how = ByteBuffer.allocate(24).order(ByteOrder.nativeOrder())
                    .putLong(flags | O_CLOEXEC | O_NOFOLLOW).putLong(0)
                    .putLong(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS).array();
            long rc;
            int again = 0;
            while ((rc = LIBC.syscall(SYS_OPENAT2, root.fd(), c, how, how.length)) == -1 && (again = retry(again)) >= 0) {}
            rc = orErrno(rc);
            if (rc >= 0) return new Fd((int) rc, relPath);
            if (rc != -Errno.ENOSYS) throw failure("openat2", (int) -rc, relPath);
            openat2Missing = true;
        }
        return openByComponents(root, relPath, flags);
    }

    /**
     * A path the kernel will not take in one call (PATH_MAX with its NUL): its directories up to a
     * slash within the limit first, then the rest from there, still beneath root. Trees deeper than
     * PATH_MAX copy as cp -a copies them.
     */
    private static Fd openBeneathInSteps(Fd root, byte[] relPath, int flags) {
        int cut = PATH_MAX - 1;
        while (cut > 0 && relPath[cut] != '/') cut--;
        if (cut == 0) throw failure("openat", Errno.ENAMETOOLONG, relPath);
        try (Fd prefix = openBeneath(root, java.util.Arrays.copyOfRange(relPath, 0, cut), O_RDONLY | O_DIRECTORY)) {
            Fd rest = openBeneath(prefix, java.util.Arrays.copyOfRange(relPath, cut + 1, relPath.length), flags);
            return new Fd(rest.release(), relPath);
        } catch (PosixException e) {
            throw failure(e.call(), e.errno(), relPath);
        }
    }

    /**
     * The pre-5.6 way (package-private for its test). Refuses what RESOLVE_BENEATH refuses with
     * EXDEV: an absolute path, and (stricter than openat2) every ".." component.
     */
    static Fd openByComponents(Fd root, byte[] relPath, int flags) {
        if (relPath.length > 0 && relPath[0] == '/') throw failure("openat", Errno.EXDEV, relPath);
        Fd current = null;
        int start = 0;
        try {
            while (true) {
                int slash = start;
                while (slash < relPath.length && relPath[slash] != '/') slash++;
                byte[] name = java.util.Arrays.copyOfRange(relPath, start, slash);
                if (name.length == 2 && name[0] == '.' && name[1] == '.') throw failure("openat", Errno.EXDEV, relPath);
                boolean last = slash >= relPath.length;
                int f = last ? flags | O_NOFOLLOW : O_RDONLY | O_DIRECTORY | O_NOFOLLOW;
                Fd next = openat(current == null ? root : current, name, f, 0);
                if (current != null) current.close();
                current = next;
                if (last) return new Fd(current.release(), relPath);
                start = slash + 1;
            }
        } catch (PosixException e) {
            if (current != null) current.close();
            throw failure(e.call(), e.errno(), relPath);
        }
    }

    /**
     * Opens an absolute path without following a symlink in any component (the roots of a copy,
     * already resolved to their real paths): a root or a parent swapped for a symlink fails with ELOOP.
     */
    public static Fd openNoSymlinks(byte[] absolutePath, int flags) {
        if (absolutePath.length == 0 || absolutePath[0] != '/') throw failure("open", Errno.EINVAL, absolutePath);
        int start = 0;
        while (start < absolutePath.length && absolutePath[start] == '/') start++;
        try (Fd slash = open(new byte[]{'/'}, O_RDONLY | O_DIRECTORY)) {
            if (start == absolutePath.length) return openat(slash, new byte[]{'.'}, flags, 0);
            Fd fd = openBeneath(slash, java.util.Arrays.copyOfRange(absolutePath, start, absolutePath.length), flags);
            return new Fd(fd.release(), absolutePath);
        } catch (PosixException e) {
            throw failure(e.call(), e.errno(), absolutePath);
        }
    }

    /**
     * flock(LOCK_EX|LOCK_NB): true when this descriptor now holds the lock, false when another
     * open file holds it. Not retried like other EAGAINs: busy is the answer here.
     */
    public static boolean tryLockExclusive(Fd fd) {
        return tryLock(fd, LOCK_EX);
    }

    /** flock(LOCK_SH|LOCK_NB): as {@link #tryLockExclusive}, shared with other holders of a shared lock. */
    public static boolean tryLockShared(Fd fd) {
        return tryLock(fd, LOCK_SH);
    }

    private static boolean tryLock(Fd fd, int kind) {
        while (true) {
            if (LIBC.flock(fd.fd(), kind | LOCK_NB) == 0) return true;
            int errno = errno();
            if (errno == Errno.EINTR) continue;
            if (errno == Errno.EAGAIN) return false;
            throw failure("flock", errno, fd.path());
        }
    }

    /** fcntl(F_SETFL): the status flags an open descriptor keeps (O_NONBLOCK, O_NOATIME, O_APPEND, O_DIRECT). */
    private static void setStatusFlags(Fd fd, int flags) {
        int again = 0;
        while (LIBC.fcntl(fd.fd(), F_SETFL, flags) == -1) again = retryOrThrow(again, "fcntl", fd.path());
    }

    static void close(int fd, byte[] path) {
        // close is never retried: on Linux the descriptor is gone even when close reports EINTR.
        if (LIBC.close(fd) == -1) {
            int errno = errno();
            if (errno != Errno.EINTR) throw failure("close", errno, path);
        }
    }

    // ---- stat ---------------------------------------------------------------------------------

    public static Stat fstat(Fd fd) {
        byte[] buf = new byte[Statx.SIZE];
        int again = 0;
        while (LIBC.statx(fd.fd(), EMPTY_C, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, buf) == -1)
            again = retryOrThrow(again, "fstat", fd.path());
        return Statx.decode(buf);
    }

    /** Device, inode and mount ID of an open file. */
    public static DirectoryIdentity identity(Fd fd) {
        byte[] buf = new byte[Statx.SIZE];
        call("statx", fd.path(), () -> LIBC.statx(fd.fd(), EMPTY_C, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW,
                STATX_BASIC_STATS | STATX_MNT_ID, buf));
        ByteBuffer b = ByteBuffer.wrap(buf).order(ByteOrder.nativeOrder());
        long mountId = (b.getInt(0) & STATX_MNT_ID) != 0 ? b.getLong(144) : -1;
        return new DirectoryIdentity(makedev(b.getInt(136) & 0xffffffffL, b.getInt(140) & 0xffffffffL), b.getLong(32),
                mountId, DirectoryIdentity.THIS_NAMESPACE);
    }

    /**
     * statx's STATX_MNT_ID_UNIQUE of an open file's mount, or -1 before Linux 6.8. Unlike STATX_MNT_ID (and the
     * mount IDs of /proc/self/mountinfo) it is never given to another mount until the machine reboots.
     */
    public static long uniqueMountId(Fd fd) {
        byte[] buf = new byte[Statx.SIZE];
        call("statx", fd.path(), () -> LIBC.statx(fd.fd(), EMPTY_C, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW, STATX_MNT_ID_UNIQUE, buf));
        ByteBuffer b = ByteBuffer.wrap(buf).order(ByteOrder.nativeOrder());
        return (b.getInt(0) & STATX_MNT_ID_UNIQUE) != 0 ? b.getLong(144) : -1;
    }

    /** lstat of name in dir. */
    public static Stat statAt(Fd dir, byte[] name) {
        byte[] buf = new byte[Statx.SIZE];
        byte[] c = PathBytes.cString(name);
        int again = 0;
        while (LIBC.statx(dir.fd(), c, AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, buf) == -1) again = retryOrThrow(again, "statx", name);
        return Statx.decode(buf);
    }

    /** lstat of name in dir, or null when it does not exist. */
    public static Stat statAtIfExists(Fd dir, byte[] name) {
        byte[] buf = new byte[Statx.SIZE];
        byte[] c = PathBytes.cString(name);
        long rc;
        int again = 0;
        while ((rc = LIBC.statx(dir.fd(), c, AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, buf)) == -1 && (again = retry(again)) >= 0) {}
        rc = orErrno(rc);
        if (rc == -Errno.ENOENT) return null;
        if (rc < 0) throw failure("statx", (int) -rc, name);
        return Statx.decode(buf);
    }

    /** lstat of a whole path (cwd-relative or absolute): the by-path way, and the CLI's checks. */
    public static Stat lstat(byte[] path) {
        byte[] buf = new byte[Statx.SIZE];
        byte[] c = PathBytes.cString(path);
        call("lstat", path, () -> LIBC.statx(AT_FDCWD, c, AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, buf));
        return Statx.decode(buf);
    }

    /** stat (or lstat, without follow) of a whole path, or null when it or a directory on its way is missing. */
    public static Stat statIfExists(byte[] path, boolean follow) {
        byte[] buf = new byte[Statx.SIZE];
        byte[] c = PathBytes.cString(path);
        int flags = follow ? 0 : AT_SYMLINK_NOFOLLOW;
        long rc = callOrErrno(() -> LIBC.statx(AT_FDCWD, c, flags, STATX_BASIC_STATS, buf));
        if (rc == -Errno.ENOENT || rc == -Errno.ENOTDIR) return null;
        if (rc < 0) throw failure(follow ? "stat" : "lstat", (int) -rc, path);
        return Statx.decode(buf);
    }

    /** realpath(3) on bytes: the absolute path with every symlink, "." and ".." resolved; the path must exist. */
    public static byte[] realpath(byte[] path) {
        byte[] c = PathBytes.cString(path);
        byte[] resolved = new byte[PATH_MAX];
        int again = 0;
        while (LIBC.realpath(c, resolved) == null) again = retryOrThrow(again, "realpath", path);
        int end = 0;
        while (end < resolved.length && resolved[end] != 0) end++;
        return java.util.Arrays.copyOf(resolved, end);
    }

    // ---- project ID ioctls --------------------------------------------------------------------

    public static FsXattr getFsXattr(Fd fd) {
        byte[] raw = new byte[FsXattr.SIZE];
        int again = 0;
        while (LIBC.ioctl(fd.fd(), FS_IOC_FSGETXATTR, raw) == -1) again = retryOrThrow(again, "ioctl(FS_IOC_FSGETXATTR)", fd.path());
        return FsXattr.decode(raw);
    }

    public static void setFsXattr(Fd fd, FsXattr value) {
        byte[] raw = value.encode();
        int again = 0;
        while (LIBC.ioctl(fd.fd(), FS_IOC_FSSETXATTR, raw) == -1) again = retryOrThrow(again, "ioctl(FS_IOC_FSSETXATTR)", fd.path());
    }

    // ---- extended attributes ------------------------------------------------------------------

    /** Names of the xattrs on an open file. */
    public static List<byte[]> flistxattr(Fd fd, NativeBuffer buf) {
        while (true) {
            long n;
            int again = 0;
            while ((n = LIBC.flistxattr(fd.fd(), buf.pointer(), buf.capacity())) == -1 && (again = retry(again)) >= 0) {}
            n = orErrno(n);
            if (n >= 0) return splitNames(buf, (int) n);
            if (n != -Errno.ERANGE) throw failure("flistxattr", (int) -n, fd.path());
            buf.ensure(call("flistxattr", fd.path(), () -> LIBC.flistxattr(fd.fd(), null, 0)) + 1);
        }
    }

    /** Value of one xattr, or null when it vanished since it was listed. */
    public static byte[] fgetxattr(Fd fd, byte[] name, NativeBuffer buf) {
        byte[] c = PathBytes.cString(name);
        while (true) {
            long n;
            int again = 0;
            while ((n = LIBC.fgetxattr(fd.fd(), c, buf.pointer(), buf.capacity())) == -1 && (again = retry(again)) >= 0) {}
            n = orErrno(n);
            if (n >= 0) return buf.copyOut(0, (int) n);
            if (n == -Errno.ENODATA) return null;
            if (n != -Errno.ERANGE) throw xattrFailure("fgetxattr", (int) -n, fd.path(), name);
            buf.ensure(call("fgetxattr", fd.path(), () -> LIBC.fgetxattr(fd.fd(), c, null, 0)) + 1);
        }
    }

    public static void fsetxattr(Fd fd, byte[] name, byte[] value) {
        byte[] c = PathBytes.cString(name);
        long rc;
        int again = 0;
        while ((rc = LIBC.fsetxattr(fd.fd(), c, value, value.length, 0)) == -1 && (again = retry(again)) >= 0) {}
        if (rc == -1) throw xattrFailure("fsetxattr", errno(), fd.path(), name);
    }

    public static void fremovexattr(Fd fd, byte[] name) {
        byte[] c = PathBytes.cString(name);
        long rc = callOrErrno(() -> Changes.LIBC.fremovexattr(fd.fd(), c));
        if (rc < 0 && rc != -Errno.ENODATA) throw xattrFailure("fremovexattr", (int) -rc, fd.path(), name);
    }

    /** By-path listing (the way mpifileutils does it): path is absolute or cwd-relative. */
    public static List<byte[]> llistxattr(byte[] path, NativeBuffer buf) {
        byte[] c = PathBytes.cString(path);
        while (true) {
            long n = callOrErrno(() -> PathXattrs.LIBC.llistxattr(c, buf.pointer(), buf.capacity()));
            if (n >= 0) return splitNames(buf, (int) n);
            if (n != -Errno.ERANGE) throw failure("llistxattr", (int) -n, path);
            buf.ensure(call("llistxattr", path, () -> PathXattrs.LIBC.llistxattr(c, null, 0)) + 1);
        }
    }

    public static byte[] lgetxattr(byte[] path, byte[] name, NativeBuffer buf) {
        byte[] c = PathBytes.cString(path);
        byte[] n = PathBytes.cString(name);
        while (true) {
            long rc = callOrErrno(() -> PathXattrs.LIBC.lgetxattr(c, n, buf.pointer(), buf.capacity()));
            if (rc >= 0) return buf.copyOut(0, (int) rc);
            if (rc == -Errno.ENODATA) return null;
            if (rc != -Errno.ERANGE) throw xattrFailure("lgetxattr", (int) -rc, path, name);
            buf.ensure(call("lgetxattr", path, () -> PathXattrs.LIBC.lgetxattr(c, n, null, 0)) + 1);
        }
    }

    public static void lsetxattr(byte[] path, byte[] name, byte[] value) {
        byte[] c = PathBytes.cString(path);
        byte[] n = PathBytes.cString(name);
        long rc = callOrErrno(() -> PathXattrs.LIBC.lsetxattr(c, n, value, value.length, 0));
        if (rc < 0) throw xattrFailure("lsetxattr", (int) -rc, path, name);
    }

    private static PosixException xattrFailure(String call, int errno, byte[] path, byte[] name) {
        return new PosixException(call + " " + new String(name, java.nio.charset.StandardCharsets.UTF_8),
                errno, path, LIBC.strerror(errno));
    }

    private static List<byte[]> splitNames(NativeBuffer buf, int length) {
        List<byte[]> names = new ArrayList<>();
        if (length == 0) return names;
        byte[] all = buf.copyOut(0, length);
        int start = 0;
        for (int i = 0; i < length; i++) {
            if (all[i] == 0) {
                if (i > start) names.add(java.util.Arrays.copyOfRange(all, start, i));
                start = i + 1;
            }
        }
        return names;
    }

    // ---- owner, mode, times -------------------------------------------------------------------

    public static void fchown(Fd fd, int uid, int gid) {
        int again = 0;
        while (LIBC.fchown(fd.fd(), uid, gid) == -1) again = retryOrThrow(again, "fchown", fd.path());
    }

    /** Owner of name in dir, the link itself when it is a symlink. */
    public static void lchownAt(Fd dir, byte[] name, int uid, int gid) {
        byte[] c = PathBytes.cString(name);
        call("fchownat", name, () -> Names.LIBC.fchownat(dir.fd(), c, uid, gid, AT_SYMLINK_NOFOLLOW));
    }

    public static void fchmod(Fd fd, int permissions) {
        int again = 0;
        while (LIBC.fchmod(fd.fd(), permissions) == -1) again = retryOrThrow(again, "fchmod", fd.path());
    }

    /** chmod of name in dir (never a symlink: Linux cannot chmod one). */
    public static void chmodAt(Fd dir, byte[] name, int permissions) {
        byte[] c = PathBytes.cString(name);
        call("fchmodat", name, () -> Names.LIBC.fchmodat(dir.fd(), c, permissions, 0));
    }

    public static void futimens(Fd fd, long atimeSec, int atimeNsec, long mtimeSec, int mtimeNsec) {
        long[] times = {atimeSec, atimeNsec, mtimeSec, mtimeNsec};
        int again = 0;
        while (LIBC.futimens(fd.fd(), times) == -1) again = retryOrThrow(again, "futimens", fd.path());
    }

    /** Times of name in dir, the link itself when it is a symlink. */
    public static void lutimensAt(Fd dir, byte[] name, long atimeSec, int atimeNsec, long mtimeSec, int mtimeNsec) {
        long[] times = {atimeSec, atimeNsec, mtimeSec, mtimeNsec};
        byte[] c = PathBytes.cString(name);
        call("utimensat", name, () -> Names.LIBC.utimensat(dir.fd(), c, times, AT_SYMLINK_NOFOLLOW));
    }

    // ---- data ---------------------------------------------------------------------------------

    /**
     * copy_file_range from offset to the same offset; returns bytes copied (0 at end of file), or
     * -errno when the kernel or file system cannot do it (EXDEV, EINVAL, ENOSYS, EOPNOTSUPP), so the
     * caller falls back to read/write.
     */
    public static long copyFileRange(Fd in, Fd out, long offset, long length) {
        long[] offIn = {offset};
        long[] offOut = {offset};
        long rc;
        int again = 0;
        while ((rc = LIBC.copy_file_range(in.fd(), offIn, out.fd(), offOut, length, 0)) == -1 && (again = retryRead(in, again)) >= 0) {}
        rc = orErrno(rc);
        if (rc >= 0) return rc;
        int errno = (int) -rc;
        if (errno == Errno.EXDEV || errno == Errno.EINVAL || errno == Errno.ENOSYS || errno == Errno.EOPNOTSUPP)
            return rc;
        throw failure("copy_file_range", errno, out.path());
    }

    /**
     * sendfile from in at offset to out at out's own file offset, which it advances: the kernel's
     * splice between two file systems that copy_file_range refuses (two mounts), one copy of each
     * page instead of read/write's two through a buffer. Returns bytes copied (0 at end of file), or
     * -errno when a file system cannot splice (EINVAL, ENOSYS, EOPNOTSUPP), so the caller falls
     * back to read/write.
     */
    public static long sendfile(Fd in, Fd out, long offset, long length) {
        long[] off = {offset};
        long rc = readOrErrno(in, () -> Data.LIBC.sendfile(out.fd(), in.fd(), off, length)); // reads in: its EAGAIN as a pread's
        if (rc >= 0) return rc;
        int errno = (int) -rc;
        if (errno == Errno.EINVAL || errno == Errno.ENOSYS || errno == Errno.EOPNOTSUPP) return rc;
        throw failure("sendfile", errno, out.path());
    }

    public static int pread(Fd fd, NativeBuffer buf, int length, long offset) {
        return (int) read("pread", fd, () -> Data.LIBC.pread(fd.fd(), buf.pointer(), length, offset));
    }

    /** pread into buf at bufOffset. */
    public static int preadInto(Fd fd, NativeBuffer buf, int bufOffset, int length, long offset) {
        return (int) read("pread", fd, () -> Data.LIBC.pread(fd.fd(), buf.pointer().slice(bufOffset), length, offset));
    }

    public static int pwrite(Fd fd, NativeBuffer buf, int bufOffset, int length, long offset) {
        return (int) call("pwrite", fd.path(),
                () -> Data.LIBC.pwrite(fd.fd(), buf.pointer().slice(bufOffset), length, offset));
    }

    /** lseek SEEK_DATA/SEEK_HOLE; returns -1 where no further data exists (ENXIO). */
    public static long seek(Fd fd, long offset, int whence) {
        long rc = readOrErrno(fd, () -> Data.LIBC.lseek(fd.fd(), offset, whence));
        if (rc == -Errno.ENXIO) return -1;
        if (rc < 0) throw failure("lseek", (int) -rc, fd.path());
        return rc;
    }

    public static void ftruncate(Fd fd, long length) {
        call("ftruncate", fd.path(), () -> Data.LIBC.ftruncate(fd.fd(), length));
    }

    public static void fsync(Fd fd) {
        call("fsync", fd.path(), () -> Data.LIBC.fsync(fd.fd()));
    }

    /** Writes back everything dirty on fd's file system: its delayed allocations become real, smaller ones. */
    public static void syncfs(Fd fd) {
        call("syncfs", fd.path(), () -> Data.LIBC.syncfs(fd.fd()));
    }

    // ---- directories and names ----------------------------------------------------------------

    /** struct linux_dirent64: d_ino and d_off (8 bytes each), then these. */
    private static final int DIRENT_RECLEN = 16; // unsigned short d_reclen
    private static final int DIRENT_TYPE = 18;   // unsigned char d_type
    private static final int DIRENT_NAME = 19;   // char d_name[], NUL-terminated

    /** One directory entry as getdents64 gives it. */
    public record DirEntry(byte[] name, int dType) {}

    /** Every entry of an open directory except "." and "..". */
    public static List<DirEntry> readDirectory(Fd dir, NativeBuffer buf) {
        List<DirEntry> entries = new ArrayList<>();
        while (true) {
            int n = (int) call("getdents64", dir.path(), () -> LIBC.getdents64(dir.fd(), buf.pointer(), buf.capacity()));
            if (n == 0) return entries;
            var p = buf.pointer();
            int pos = 0;
            while (pos < n) {
                int reclen = p.getShort(pos + DIRENT_RECLEN) & 0xffff;
                int type = p.getByte(pos + DIRENT_TYPE) & 0xff;
                int nameStart = pos + DIRENT_NAME;
                int nameEnd = nameStart;
                while (p.getByte(nameEnd) != 0) nameEnd++;
                byte[] name = new byte[nameEnd - nameStart];
                p.get(nameStart, name, 0, name.length);
                if (!isDotOrDotDot(name)) entries.add(new DirEntry(name, type));
                pos += reclen;
            }
        }
    }

    private static boolean isDotOrDotDot(byte[] n) {
        return (n.length == 1 && n[0] == '.') || (n.length == 2 && n[0] == '.' && n[1] == '.');
    }

    /** mkdirat; false when something already has that name. */
    public static boolean mkdirat(Fd dir, byte[] name, int mode) {
        byte[] c = PathBytes.cString(name);
        long rc;
        int again = 0;
        while ((rc = LIBC.mkdirat(dir.fd(), c, mode)) == -1 && (again = retry(again)) >= 0) {}
        rc = orErrno(rc);
        if (rc == -Errno.EEXIST) return false;
        if (rc < 0) throw failure("mkdirat", (int) -rc, name);
        return true;
    }

    public static void symlinkat(byte[] target, Fd dir, byte[] name) {
        byte[] t = PathBytes.cString(target);
        byte[] c = PathBytes.cString(name);
        call("symlinkat", name, () -> Names.LIBC.symlinkat(t, dir.fd(), c));
    }

    public static byte[] readlinkat(Fd dir, byte[] name) {
        byte[] c = PathBytes.cString(name);
        int size = 4096;
        while (true) {
            byte[] buf = new byte[size];
            int n = (int) call("readlinkat", name, () -> Names.LIBC.readlinkat(dir.fd(), c, buf, buf.length));
            if (n < size) return java.util.Arrays.copyOf(buf, n);
            size *= 4;
        }
    }

    public static void linkat(Fd oldDir, byte[] oldName, Fd newDir, byte[] newName) {
        byte[] o = PathBytes.cString(oldName);
        byte[] n = PathBytes.cString(newName);
        call("linkat", newName, () -> LIBC.linkat(oldDir.fd(), o, newDir.fd(), n, 0));
    }

    /** Links oldName as newName, which must be free: false when newName exists, and nothing linked (linkat never replaces). */
    public static boolean linkatUnlessTaken(Fd oldDir, byte[] oldName, Fd newDir, byte[] newName) {
        byte[] o = PathBytes.cString(oldName);
        byte[] n = PathBytes.cString(newName);
        long rc = callOrErrno(() -> LIBC.linkat(oldDir.fd(), o, newDir.fd(), n, 0));
        if (rc == -Errno.EEXIST) return false;
        if (rc < 0) throw failure("linkat", (int) -rc, newName);
        return true;
    }

    /**
     * An unnamed regular file in dir (O_TMPFILE; flags O_WRONLY or O_RDWR, plus any others), named
     * later by {@link #linkUnnamed}; null when dir's file system or the kernel makes none (EOPNOTSUPP,
     * EISDIR, EINVAL). path names the file to be, in messages.
     */
    public static Fd openUnnamedUnlessRefused(Fd dir, byte[] path, int flags, int mode) {
        long rc = callOrErrno(() -> LIBC.openat(dir.fd(), DOT_C, flags | O_TMPFILE | O_CLOEXEC, mode));
        if (rc == -Errno.EOPNOTSUPP || rc == -Errno.EISDIR || rc == -Errno.EINVAL) return null;
        if (rc < 0) throw failure("openat", (int) -rc, path);
        return new Fd((int) rc, path);
    }

    /**
     * Gives an unnamed file ({@link #openUnnamedUnlessRefused}) the name name in dir, through its
     * /proc/self/fd link: unlike AT_EMPTY_PATH this needs no CAP_DAC_READ_SEARCH (man 2 open).
     */
    public static void linkUnnamed(Fd file, Fd dir, byte[] name) {
        byte[] proc = PathBytes.cString(PathBytes.of("/proc/self/fd/" + file.fd()));
        byte[] n = PathBytes.cString(name);
        call("linkat", name, () -> LIBC.linkat(AT_FDCWD, proc, dir.fd(), n, AT_SYMLINK_FOLLOW));
    }

    /**
     * The same through the descriptor itself (linkat AT_EMPTY_PATH): no path to build or look up, but
     * the kernel allows it only with CAP_DAC_READ_SEARCH and says ENOENT otherwise (man 2 linkat).
     */
    public static void linkUnnamedByDescriptor(Fd file, Fd dir, byte[] name) {
        byte[] n = PathBytes.cString(name);
        call("linkat", name, () -> LIBC.linkat(file.fd(), EMPTY_C, dir.fd(), n, AT_EMPTY_PATH));
    }

    /** Whether /proc/self/fd is there, which {@link #linkUnnamed} names files through. */
    public static boolean procFdExists() {
        long rc = callOrErrno(() -> LIBC.statx(AT_FDCWD, PROC_SELF_FD_C, 0, STATX_BASIC_STATS, new byte[Statx.SIZE]));
        return rc == 0;
    }

    public static void mknodat(Fd dir, byte[] name, int mode, long dev) {
        byte[] c = PathBytes.cString(name);
        call("mknodat", name, () -> Names.LIBC.mknodat(dir.fd(), c, mode, dev));
    }

    public static void renameat(Fd oldDir, byte[] oldName, Fd newDir, byte[] newName) {
        byte[] o = PathBytes.cString(oldName);
        byte[] n = PathBytes.cString(newName);
        call("renameat", newName, () -> Changes.LIBC.renameat(oldDir.fd(), o, newDir.fd(), n));
    }

    /**
     * Renames oldName to newName, which must be free (renameat2 RENAME_NOREPLACE): false when newName
     * exists, and nothing renamed. Where the file system or kernel takes no such flag it fails with
     * EINVAL (Lustre, FUSE) or ENOSYS (kernels before 3.15).
     */
    public static boolean renameatNoReplace(Fd oldDir, byte[] oldName, Fd newDir, byte[] newName) {
        byte[] o = PathBytes.cString(oldName);
        byte[] n = PathBytes.cString(newName);
        long rc = callOrErrno(() -> Changes.LIBC.renameat2(oldDir.fd(), o, newDir.fd(), n, RENAME_NOREPLACE));
        if (rc == -Errno.EEXIST) return false;
        if (rc < 0) throw failure("renameat2", (int) -rc, newName);
        return true;
    }

    public static void unlinkat(Fd dir, byte[] name, boolean directory) {
        byte[] c = PathBytes.cString(name);
        call("unlinkat", name, () -> Changes.LIBC.unlinkat(dir.fd(), c, directory ? AT_REMOVEDIR : 0));
    }

    // ---- process ------------------------------------------------------------------------------

    public static int geteuid() { return LIBC.geteuid(); }

    public static int getegid() { return LIBC.getegid(); }
}

package io.sparkdcp.bench.latencyfs;

import io.sparkdcp.posix.Errno;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.NativeBuffer;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.PosixException;
import io.sparkdcp.posix.Stat;
import jnr.ffi.Pointer;
import jnr.ffi.types.off_t;
import jnr.ffi.types.size_t;
import ru.serce.jnrfuse.ErrorCodes;
import ru.serce.jnrfuse.FuseFillDir;
import ru.serce.jnrfuse.FuseStubFS;
import ru.serce.jnrfuse.struct.FileStat;
import ru.serce.jnrfuse.struct.FuseFileInfo;
import ru.serce.jnrfuse.struct.FuseOperations;
import ru.serce.jnrfuse.struct.Timespec;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.IntSupplier;

/**
 * A FUSE passthrough over a real directory that delays metadata requests as a profile says, so
 * that a copy can be rehearsed against a file system where each such request is a round trip.
 * Data (read, write) is not delayed. Project-ID ioctls and xattrs go to the file system below, but
 * for {@code lustre.*} xattrs and layouts, which {@link LustreEmulation} keeps as Lustre would.
 * Names are handled as UTF-8 strings, as jnr-fuse gives them: it is a bench tool, not a copy target.
 */
public final class LatencyFs extends FuseStubFS {
    /** Every open from 64-bit user space has O_LARGEFILE; the kernel's internal opens do not. */
    private static final int O_LARGEFILE = "aarch64".equals(System.getProperty("os.arch")) ? 0400000 : 0100000;
    private static final int NO_ID = -1;

    private final String backing;
    private final Fd root;
    private final LatencyProfile profile;
    private final AtomicLongArray counts = new AtomicLongArray(MetadataOp.values().length);
    private final AtomicLongArray serveNanos = new AtomicLongArray(MetadataOp.values().length);
    /** Descriptors of the open files and directories, by the fh handed to the kernel (the raw fd). */
    private final Map<Long, Fd> open = new ConcurrentHashMap<>();
    /** The fh of opens the kernel made itself around an ioctl: their release is internal too. */
    private final Map<Long, Boolean> internal = new ConcurrentHashMap<>();
    private final ThreadLocal<NativeBuffer> dirBuffers = ThreadLocal.withInitial(() -> new NativeBuffer(64 << 10));
    /**
     * The path whose attributes libfuse will ask for next on this thread, to fill the reply of the
     * create or setattr just served (each request is served on one thread, start to end).
     */
    private final ThreadLocal<String> replyPending = new ThreadLocal<>();
    private final LustreEmulation lustre = new LustreEmulation();

    public LatencyFs(String backingDirectory, LatencyProfile profile) {
        this.backing = backingDirectory.endsWith("/") ? backingDirectory.substring(0, backingDirectory.length() - 1) : backingDirectory;
        this.root = Posix.open(PathBytes.of(this.backing), Linux.O_RDONLY | Linux.O_DIRECTORY);
        this.profile = profile;
    }

    public LatencyProfile profile() { return profile; }

    /** The callbacks as libfuse's struct fuse_operations, for {@link FuseLoop} to mount with. */
    FuseOperations operations() { return fuseOperations; }

    /** Requests of that kind served so far (delayed or not). */
    public long count(MetadataOp op) { return counts.get(op.ordinal()); }

    /** Time spent serving requests of that kind so far, the injected delay included. */
    public long nanos(MetadataOp op) { return serveNanos.get(op.ordinal()); }

    /** Every kind of request served so far, lower-case names. */
    public Map<String, Long> counts() {
        Map<String, Long> out = new java.util.LinkedHashMap<>();
        for (MetadataOp op : MetadataOp.values()) out.put(op.name().toLowerCase(java.util.Locale.ROOT), count(op));
        return out;
    }

    public void closeBacking() {
        open.values().forEach(Fd::close);
        root.close();
    }

    // ---- plumbing -------------------------------------------------------------------------------

    /** struct fuse_conn_info (libfuse 2.9): capable at byte 20, want at 24. */
    private static final int CONN_CAPABLE = 20;
    private static final int CONN_WANT = 24;
    private static final int FUSE_CAP_IOCTL_DIR = 1 << 11;

    /** Asks for ioctls on directories too: libfuse 2 refuses them with ENOTTY unless the file system wants them. */
    @Override
    public Pointer init(Pointer conn) {
        if ((conn.getInt(CONN_CAPABLE) & FUSE_CAP_IOCTL_DIR) != 0) conn.putInt(CONN_WANT, conn.getInt(CONN_WANT) | FUSE_CAP_IOCTL_DIR);
        return null;
    }

    /**
     * {@link #serve} for a request whose reply libfuse fills by a getattr of path right after it
     * (create, mkdir, symlink, link, mknod, and the setattr family): that getattr, if the call
     * succeeded, is part of this round trip.
     */
    private int serveWithReply(MetadataOp op, String path, IntSupplier call) {
        int rc = serve(op, call);
        if (rc >= 0) replyPending.set(path);
        return rc;
    }

    /** Counts and delays one request, then runs it; a failed call below becomes -errno. */
    private int serve(MetadataOp op, IntSupplier call) {
        replyPending.remove();
        counts.incrementAndGet(op.ordinal());
        long start = System.nanoTime();
        Delay.pause(profile.delayOf(op));
        try {
            return call.getAsInt();
        } catch (PosixException e) {
            return -e.errno();
        } finally {
            serveNanos.addAndGet(op.ordinal(), System.nanoTime() - start);
        }
    }

    /** {@link #serve} for a call that returns nothing: 0 unless it threw. */
    private int serveCall(MetadataOp op, Runnable call) {
        return serve(op, returningZero(call));
    }

    /** {@link #serveWithReply} for a call that returns nothing. */
    private int serveCallWithReply(MetadataOp op, String path, Runnable call) {
        return serveWithReply(op, path, returningZero(call));
    }

    private static IntSupplier returningZero(Runnable call) {
        return () -> {
            call.run();
            return 0;
        };
    }

    /** The path relative to the backing root, as openat wants it; "." for the root. */
    private static byte[] rel(String path) {
        String r = path.startsWith("/") ? path.substring(1) : path;
        return PathBytes.of(r.isEmpty() ? "." : r);
    }

    private String below(String path) {
        return backing + path;
    }

    private static int failed(long rc) {
        return rc < 0 ? -BackingLibC.errno() : (int) rc;
    }

    private int keep(Fd fd, FuseFileInfo fi) {
        open.put((long) fd.fd(), fd);
        fi.fh.set(fd.fd());
        return 0;
    }

    private int fdOf(FuseFileInfo fi) {
        return (int) fi.fh.get();
    }

    private int closeHandle(FuseFileInfo fi) {
        Fd fd = open.remove(fi.fh.get());
        if (fd != null) fd.close();
        return 0;
    }

    // ---- attributes and names -------------------------------------------------------------------

    @Override
    public int getattr(String path, FileStat stat) {
        MetadataOp op = path.equals(replyPending.get()) ? MetadataOp.GETATTR_REPLY : MetadataOp.GETATTR;
        return serveCall(op, () -> fill(stat, Posix.statAt(root, rel(path))));
    }

    private static void fill(FileStat st, Stat s) {
        st.st_mode.set(typeBits(s.type()) | s.permissions());
        st.st_ino.set(s.ino());
        st.st_nlink.set(s.nlink());
        st.st_uid.set(s.uid());
        st.st_gid.set(s.gid());
        st.st_rdev.set(s.rdev());
        st.st_size.set(s.size());
        st.st_blocks.set(s.blocks());
        st.st_blksize.set(4096);
        st.st_atim.tv_sec.set(s.atimeSec());
        st.st_atim.tv_nsec.set(s.atimeNsec());
        st.st_mtim.tv_sec.set(s.mtimeSec());
        st.st_mtim.tv_nsec.set(s.mtimeNsec());
    }

    private static int typeBits(FileType t) {
        return switch (t) {
            case DIRECTORY -> Linux.S_IFDIR;
            case FILE -> Linux.S_IFREG;
            case SYMLINK -> Linux.S_IFLNK;
            case FIFO -> Linux.S_IFIFO;
            case SOCKET -> Linux.S_IFSOCK;
            case CHAR_DEVICE -> Linux.S_IFCHR;
            case BLOCK_DEVICE -> Linux.S_IFBLK;
        };
    }

    @Override
    public int mkdir(String path, long mode) {
        return serveWithReply(MetadataOp.MKDIR, path, () -> Posix.mkdirat(root, rel(path), (int) mode) ? 0 : -ErrorCodes.EEXIST());
    }

    @Override
    public int mknod(String path, long mode, long rdev) {
        return serveCallWithReply(MetadataOp.MKNOD, path, () -> Posix.mknodat(root, rel(path), (int) mode, rdev));
    }

    @Override
    public int symlink(String target, String linkPath) {
        return serveCallWithReply(MetadataOp.SYMLINK, linkPath, () -> Posix.symlinkat(target.getBytes(StandardCharsets.UTF_8), root, rel(linkPath)));
    }

    @Override
    public int readlink(String path, Pointer buf, @size_t long size) {
        return serve(MetadataOp.READLINK, () -> {
            byte[] target = Posix.readlinkat(root, rel(path));
            int n = (int) Math.min(target.length, size - 1);
            buf.put(0, target, 0, n);
            buf.putByte(n, (byte) 0);
            return 0;
        });
    }

    @Override
    public int link(String oldPath, String newPath) {
        return serveCallWithReply(MetadataOp.LINK, newPath, () -> {
            Posix.linkat(root, rel(oldPath), root, rel(newPath));
            lustre.linked(oldPath, newPath);
        });
    }

    @Override
    public int unlink(String path) {
        return serveCall(MetadataOp.UNLINK, () -> {
            Posix.unlinkat(root, rel(path), false);
            lustre.removed(path);
        });
    }

    @Override
    public int rmdir(String path) {
        return serveCall(MetadataOp.RMDIR, () -> {
            Posix.unlinkat(root, rel(path), true);
            lustre.removed(path);
        });
    }

    @Override
    public int rename(String oldPath, String newPath) {
        return serveCall(MetadataOp.RENAME, () -> {
            Posix.renameat(root, rel(oldPath), root, rel(newPath));
            lustre.renamed(oldPath, newPath);
        });
    }

    @Override
    public int chmod(String path, long mode) {
        return serveCallWithReply(MetadataOp.CHMOD, path, () -> Posix.chmodAt(root, rel(path), (int) mode & Linux.PERMISSION_BITS));
    }

    @Override
    public int chown(String path, long uid, long gid) {
        // (uid_t) -1 leaves the owner as it is; it arrives here as 4294967295.
        return serveCallWithReply(MetadataOp.CHOWN, path, () -> Posix.lchownAt(root, rel(path), uid == 0xffffffffL ? NO_ID : (int) uid, gid == 0xffffffffL ? NO_ID : (int) gid));
    }

    @Override
    public int utimens(String path, Timespec[] times) {
        return serveWithReply(MetadataOp.UTIMENS, path, () -> {
            Posix.lutimensAt(root, rel(path), times[0].tv_sec.get(), (int) times[0].tv_nsec.longValue(),
                    times[1].tv_sec.get(), (int) times[1].tv_nsec.longValue());
            return 0;
        });
    }

    @Override
    public int truncate(String path, @off_t long size) {
        return serveWithReply(MetadataOp.TRUNCATE, path, () -> {
            if (size > 0) lustre.written(path);
            try (Fd fd = Posix.openat(root, rel(path), Linux.O_WRONLY | Linux.O_NOFOLLOW, 0)) {
                return failed(BackingLibC.LIBC.ftruncate(fd.fd(), size));
            }
        });
    }

    @Override
    public int ftruncate(String path, @off_t long size, FuseFileInfo fi) {
        if (size > 0) lustre.written(path);
        return serveWithReply(MetadataOp.TRUNCATE, path, () -> failed(BackingLibC.LIBC.ftruncate(fdOf(fi), size)));
    }

    // ---- files ----------------------------------------------------------------------------------

    @Override
    public int open(String path, FuseFileInfo fi) {
        int flags = fi.flags.get();
        // The kernel opens a file itself, with bare O_RDONLY, to send it a project-ID ioctl.
        boolean byKernel = flags == Linux.O_RDONLY;
        return serve(byKernel ? MetadataOp.OPEN_INTERNAL : MetadataOp.OPEN, () -> {
            Fd fd = Posix.openat(root, rel(path), (flags & ~O_LARGEFILE) | Linux.O_NOFOLLOW, 0);
            if (byKernel) internal.put((long) fd.fd(), Boolean.TRUE);
            return keep(fd, fi);
        });
    }

    @Override
    public int create(String path, long mode, FuseFileInfo fi) {
        int flags = fi.flags.get() & ~O_LARGEFILE;
        return serveWithReply(MetadataOp.CREATE, path, () -> {
            int rc = keep(Posix.openat(root, rel(path), (flags & ~Linux.O_LOV_DELAY_CREATE) | Linux.O_CREAT | Linux.O_NOFOLLOW,
                    (int) mode & Linux.PERMISSION_BITS), fi);
            lustre.created(path, flags);
            return rc;
        });
    }

    @Override
    public int release(String path, FuseFileInfo fi) {
        boolean byKernel = internal.remove(fi.fh.get()) != null;
        return serve(byKernel ? MetadataOp.RELEASE_INTERNAL : MetadataOp.RELEASE, () -> closeHandle(fi));
    }

    @Override
    public int read(String path, Pointer buf, @size_t long size, @off_t long offset, FuseFileInfo fi) {
        return failed(BackingLibC.LIBC.pread(fdOf(fi), buf, size, offset));
    }

    @Override
    public int write(String path, Pointer buf, @size_t long size, @off_t long offset, FuseFileInfo fi) {
        lustre.written(path);
        return failed(BackingLibC.LIBC.pwrite(fdOf(fi), buf, size, offset));
    }

    @Override
    public int flush(String path, FuseFileInfo fi) {
        return 0;
    }

    @Override
    public int fsync(String path, int isdatasync, FuseFileInfo fi) {
        return serve(MetadataOp.FSYNC, () -> failed(BackingLibC.LIBC.fsync(fdOf(fi))));
    }

    /** Passes FS_IOC_FSGETXATTR / FS_IOC_FSSETXATTR (and any other sized ioctl) to the file below. */
    @Override
    public int ioctl(String path, int cmd, Pointer arg, FuseFileInfo fi, long flags, Pointer data) {
        long request = cmd & 0xffffffffL;
        MetadataOp op = request == Linux.FS_IOC_FSSETXATTR ? MetadataOp.IOCTL_SET : MetadataOp.IOCTL_GET;
        return serve(op, () -> failed(BackingLibC.LIBC.ioctl(fdOf(fi), request, data)));
    }

    // ---- directories ----------------------------------------------------------------------------

    @Override
    public int opendir(String path, FuseFileInfo fi) {
        // As for files: the kernel opens a directory itself, with bare O_RDONLY, to send it a project-ID ioctl.
        boolean byKernel = fi.flags.get() == Linux.O_RDONLY;
        return serve(byKernel ? MetadataOp.OPEN_INTERNAL : MetadataOp.OPENDIR, () -> {
            Fd fd = Posix.openat(root, rel(path), Linux.O_RDONLY | Linux.O_DIRECTORY | Linux.O_NOFOLLOW, 0);
            if (byKernel) internal.put((long) fd.fd(), Boolean.TRUE);
            return keep(fd, fi);
        });
    }

    @Override
    public int readdir(String path, Pointer buf, FuseFillDir filler, @off_t long offset, FuseFileInfo fi) {
        return serve(MetadataOp.READDIR, () -> {
            Fd dir = open.get(fi.fh.get());
            if (dir == null) return -ErrorCodes.EBADF();
            Posix.seek(dir, 0, Linux.SEEK_SET);
            filler.apply(buf, ".", null, 0);
            filler.apply(buf, "..", null, 0);
            for (Posix.DirEntry e : Posix.readDirectory(dir, dirBuffers.get())) {
                if (filler.apply(buf, new String(e.name(), StandardCharsets.UTF_8), null, 0) != 0) break;
            }
            return 0;
        });
    }

    @Override
    public int releasedir(String path, FuseFileInfo fi) {
        boolean byKernel = internal.remove(fi.fh.get()) != null;
        return serve(byKernel ? MetadataOp.RELEASE_INTERNAL : MetadataOp.RELEASEDIR, () -> closeHandle(fi));
    }

    // ---- extended attributes --------------------------------------------------------------------

    @Override
    public int getxattr(String path, String name, Pointer value, @size_t long size) {
        if (LustreEmulation.handles(name)) return serve(MetadataOp.GETXATTR, () -> {
            byte[] v = lustre.get(path, name);
            if (v == null) return -Errno.ENODATA;
            if (size == 0) return v.length;
            if (size < v.length) return -Errno.ERANGE;
            value.put(0, v, 0, v.length);
            return v.length;
        });
        return serve(MetadataOp.GETXATTR, () -> failed(BackingLibC.LIBC.lgetxattr(below(path), name, size == 0 ? null : value, size)));
    }

    @Override
    public int setxattr(String path, String name, Pointer value, @size_t long size, int flags) {
        if (LustreEmulation.handles(name)) return serve(MetadataOp.SETXATTR, () -> {
            byte[] v = new byte[(int) size];
            value.get(0, v, 0, v.length);
            boolean directory = Posix.statAt(root, rel(path)).type() == FileType.DIRECTORY;
            return lustre.set(path, name, v, directory);
        });
        return serve(MetadataOp.SETXATTR, () -> failed(BackingLibC.LIBC.lsetxattr(below(path), name, value, size, flags)));
    }

    @Override
    public int listxattr(String path, Pointer list, @size_t long size) {
        return serve(MetadataOp.LISTXATTR, () -> failed(BackingLibC.LIBC.llistxattr(below(path), size == 0 ? null : list, size)));
    }

    @Override
    public int removexattr(String path, String name) {
        if (LustreEmulation.handles(name)) return serve(MetadataOp.REMOVEXATTR, () -> lustre.remove(path, name));
        return serve(MetadataOp.REMOVEXATTR, () -> failed(BackingLibC.LIBC.lremovexattr(below(path), name)));
    }
}

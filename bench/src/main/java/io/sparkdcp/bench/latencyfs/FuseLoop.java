package io.sparkdcp.bench.latencyfs;

import jnr.ffi.LibraryLoader;
import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;
import jnr.ffi.Struct;
import jnr.ffi.byref.IntByReference;
import jnr.ffi.byref.PointerByReference;
import jnr.ffi.types.size_t;

import java.util.ArrayList;
import java.util.List;

/**
 * Serves a mounted FUSE file system with a fixed set of Java threads, each reading requests from
 * the kernel and running them through libfuse 2's high-level layer (which calls the file system's
 * Java callbacks on that same thread).
 *
 * <p>Why not libfuse's own loop ({@code fuse_main}, as jnr-fuse runs it): its worker threads are
 * native. jffi attaches a native thread to the JVM for each callback and detaches it afterwards
 * until that thread has made 1,000 callbacks, and libfuse ends idle workers beyond ten and starts
 * new ones under load, so under many requests in flight nearly every callback paid an attach and
 * a detach (both under the JVM's global thread lock): 96,387 threads were started for 90,036
 * callbacks with 16 clients. These threads are Java threads, attached once for good.
 */
final class FuseLoop {
    /** The libfuse 2 calls for mounting and running the loop ourselves. */
    public interface LibFuseSession {
        Pointer fuse_setup(int argc, String[] argv, Struct operations, @size_t long operationsSize, PointerByReference mountPoint,
                           IntByReference multithreaded, Pointer userData);

        void fuse_teardown(Pointer fuse, Pointer mountPoint);

        Pointer fuse_get_session(Pointer fuse);

        Pointer fuse_session_next_chan(Pointer session, Pointer channel);

        @size_t long fuse_chan_bufsize(Pointer channel);

        int fuse_session_receive_buf(Pointer session, Pointer buf, PointerByReference channel);

        void fuse_session_process_buf(Pointer session, Pointer buf, Pointer channel);

        int fuse_session_exited(Pointer session);

        void fuse_session_exit(Pointer session);
    }

    private static final int EINTR = 4;
    /** struct fuse_buf (libfuse 2.9, LP64): size_t size, int flags, void *mem, int fd, off_t pos. */
    private static final int FUSE_BUF_SIZE = 40;
    private static final int BUF_MEM = 16;

    private final LibFuseSession lib;
    private final Runtime runtime;
    private final Pointer fuse;
    private final Pointer mountPoint;
    private final Pointer session;
    private final Pointer channel;
    private final List<Thread> workers = new ArrayList<>();

    private FuseLoop(LibFuseSession lib, Pointer fuse, Pointer mountPoint) {
        this.lib = lib;
        this.runtime = Runtime.getRuntime(lib);
        this.fuse = fuse;
        this.mountPoint = mountPoint;
        this.session = lib.fuse_get_session(fuse);
        this.channel = lib.fuse_session_next_chan(session, null);
    }

    /**
     * Mounts (libfuse's fuse_setup, with the command line fuse_main would get) and starts
     * {@code threads} workers; the kernel hands each request to one of them.
     */
    static FuseLoop start(Struct operations, String[] argv, int threads) {
        LibFuseSession lib = LibraryLoader.create(LibFuseSession.class).failImmediately().load("libfuse.so.2");
        PointerByReference mountPoint = new PointerByReference();
        Pointer fuse = lib.fuse_setup(argv.length, argv, operations, Struct.size(operations), mountPoint, new IntByReference(), null);
        if (fuse == null) throw new IllegalStateException("FUSE mount failed (fuse_setup): is libfuse2 installed, /dev/fuse there?");
        FuseLoop loop = new FuseLoop(lib, fuse, mountPoint.getValue());
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(loop::serve, "latencyfs-" + i);
            t.setDaemon(true);
            loop.workers.add(t);
            t.start();
        }
        return loop;
    }

    /** One worker: receive a request, process it, until the file system is unmounted. */
    private void serve() {
        long size = lib.fuse_chan_bufsize(channel);
        Pointer mem = Memory.allocateDirect(runtime, size);
        Pointer buf = Memory.allocateDirect(runtime, FUSE_BUF_SIZE);
        while (lib.fuse_session_exited(session) == 0) {
            buf.setMemory(0, FUSE_BUF_SIZE, (byte) 0);
            buf.putLong(0, size);
            buf.putPointer(BUF_MEM, mem);
            PointerByReference ch = new PointerByReference(channel);
            int res = lib.fuse_session_receive_buf(session, buf, ch);
            if (res == -EINTR) continue;
            if (res <= 0) {
                if (res < 0) lib.fuse_session_exit(session);
                return;
            }
            lib.fuse_session_process_buf(session, buf, ch.getValue());
        }
    }

    /**
     * After the unmount: waits for the workers (each sees the end of the session) and frees
     * libfuse's state. Workers still blocked after the wait are left; they are daemon threads.
     */
    void finish(long waitMillis) {
        lib.fuse_session_exit(session);
        long deadline = System.currentTimeMillis() + waitMillis;
        boolean allEnded = true;
        for (Thread t : workers) {
            try {
                t.join(Math.max(1, deadline - System.currentTimeMillis()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            allEnded &= !t.isAlive();
        }
        if (allEnded) lib.fuse_teardown(fuse, mountPoint);
    }
}

package io.sparkdcp.posix;

import jnr.ffi.Pointer;
import jnr.ffi.annotations.In;
import jnr.ffi.annotations.Out;

import java.util.ArrayList;
import java.util.List;

/**
 * Signals taken synchronously: a process started with TERM, INT and HUP blocked (the launcher does so
 * before it execs the JVM, which then leaves them alone under -Xrs) keeps each one pending from its
 * first instruction until a thread takes it here, however long the JVM takes to start.
 */
public final class Signals {
    /** sigset_t of glibc: 1,024 bits. */
    private static final int SIGSET_BYTES = 128;
    /** struct sigaction of glibc on 64-bit Linux: the handler first, then the mask, the flags and the restorer. */
    private static final int SIGACTION_BYTES = 152;
    private static final int SIG_BLOCK = 0;
    private static final long SIG_IGN = 1;

    private Signals() {}

    /** Public only because jnr-ffi generates the implementation in another class loader. */
    public interface Calls {
        int pthread_sigmask(int how, @In byte[] set, @Out byte[] old);

        int sigaction(int signal, @In byte[] act, @Out byte[] old);

        int sigwaitinfo(@In byte[] set, Pointer info);
    }

    private static final class Bound { static final Calls LIBC = LibCBinding.bind(Calls.class); }

    /** Of {@code signals}, those this thread blocks and the process does not ignore: what {@link #await} may take. */
    public static List<Integer> blockedNotIgnored(List<Integer> signals) {
        byte[] mask = new byte[SIGSET_BYTES];
        if (Bound.LIBC.pthread_sigmask(SIG_BLOCK, null, mask) != 0) return List.of();
        List<Integer> found = new ArrayList<>();
        for (int signal : signals) {
            byte[] action = new byte[SIGACTION_BYTES];
            if (!isMember(mask, signal) || Bound.LIBC.sigaction(signal, null, action) != 0) continue;
            long handler = 0;
            for (int i = 7; i >= 0; i--) handler = handler << 8 | (action[i] & 0xff); // little-endian, as Linux's 64-bit ABIs are here
            if (handler != SIG_IGN) found.add(signal);
        }
        return found;
    }

    /** Waits for one of {@code signals} (each blocked in every thread) and returns it. */
    public static int await(List<Integer> signals) {
        byte[] set = new byte[SIGSET_BYTES];
        for (int signal : signals) set[(signal - 1) / 8] |= (byte) (1 << ((signal - 1) % 8));
        while (true) {
            int taken = Bound.LIBC.sigwaitinfo(set, null);
            if (taken > 0) return taken;
            // EINTR (a signal outside the set, handled elsewhere): wait again
        }
    }

    private static boolean isMember(byte[] set, int signal) {
        return (set[(signal - 1) / 8] & (1 << ((signal - 1) % 8))) != 0;
    }
}

package io.sparkdcp.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time (user + system) of this process and of the children it has waited for, from
 * /proc/self/stat: the difference over one copy is the CPU that copy cost, whether this JVM's
 * threads made it (the engine) or a command it started and waited for (cp, the whole spark-dcp command).
 */
public final class ProcessCpu {
    /** The unit of /proc's times: USER_HZ, 100 on Linux. */
    private static final long NANOS_PER_TICK = 10_000_000L;
    private static final Path STAT = Path.of("/proc/self/stat");

    private ProcessCpu() {}

    /** utime + stime + cutime + cstime, in nanoseconds (10 ms steps). */
    public static long nanos() {
        try {
            String stat = Files.readString(STAT);
            // Fields after the command name (which may hold spaces), from field 3 (state) on.
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long ticks = 0;
            for (int field = 14; field <= 17; field++) ticks += Long.parseLong(f[field - 3]);
            return ticks * NANOS_PER_TICK;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package io.sparkdcp.copy;

import io.sparkdcp.posix.Stat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The mode a new file is created with. It is the source's rwx bits, so that in the common case
 * no fchmod follows. The owner is set right after the create, while the file is still empty, so
 * the data is never readable by anyone the final owner and mode do not allow. An fchmod is still
 * needed for setuid, setgid and sticky bits (chown and writes may clear them; they are never
 * given at creation), for bits the umask takes away, and under a default ACL, which overrides
 * the umask.
 */
final class CreationMode {
    private static final int UMASK = readUmask();

    private CreationMode() {}

    static int of(Stat src) {
        return src.permissions() & 0777;
    }

    /** True when creating with {@link #of} already gave the final mode. */
    static boolean isFinal(Stat src, ParentState where) {
        return (src.permissions() & 07000) == 0 && (src.permissions() & UMASK) == 0 && !where.defaultAcl();
    }

    /** The process umask from /proc (reading it with umask(2) would change it for a moment for every thread). */
    private static int readUmask() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Umask:")) return Integer.parseInt(line.substring(6).trim(), 8);
            }
        } catch (IOException | NumberFormatException e) {
            // fall through: assume every bit may be masked, so fchmod always runs
        }
        return 0777;
    }
}

package io.sparkdcp.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Who holds a directory's flock, from /proc/locks: how tests see a run's DST lock from outside. */
public final class Flocks {
    private Flocks() {}

    /**
     * The pid of an exclusive FLOCK on dir (its inode on its device), or null. The device too: a fresh XFS gives its
     * first directories the same inode numbers, and other tests' runs hold such locks on theirs.
     */
    public static String exclusiveHolder(Path dir) throws IOException {
        long dev = (Long) Files.getAttribute(dir, "unix:dev");
        long major = (dev >>> 8) & 0xfff | (dev >>> 32) & ~0xfffL, minor = dev & 0xff | (dev >>> 12) & ~0xffL;
        String id = String.format("%02x:%02x:%d", major, minor, (Long) Files.getAttribute(dir, "unix:ino"));
        for (String line : Files.readAllLines(Path.of("/proc/locks"))) {
            String[] f = line.trim().split("\\s+");
            if (f.length >= 6 && f[1].equals("FLOCK") && f[3].equals("WRITE") && f[5].equals(id)) return f[4];
        }
        return null;
    }
}

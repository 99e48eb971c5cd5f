package io.sparkdcp.posix;

import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Which directory a root is, by identity rather than by name: device, inode and mount ID as seen
 * from one host's mount namespace ({@code namespace}: boot ID and mount namespace).
 *
 * @param mountId statx's STATX_MNT_ID, so two bind mounts of one directory differ; -1 if the kernel has none
 */
public record DirectoryIdentity(long dev, long ino, long mountId, String namespace) implements Serializable {

    /** The namespace this JVM sees mounts in: device numbers and mount IDs mean the same only within it. */
    public static final String THIS_NAMESPACE = currentNamespace();

    /** Same inode on the same device (mounts aside): how containment is decided. */
    public boolean sameInode(DirectoryIdentity o) {
        return dev == o.dev && ino == o.ino;
    }

    /**
     * True when {@code seen} is still the directory this identity pinned. From another host or mount
     * namespace (an executor elsewhere) device numbers and mount IDs differ by nature, so only the
     * inode number, which the file system itself gives, is compared there.
     */
    public boolean sameAs(DirectoryIdentity seen) {
        if (!namespace.equals(seen.namespace)) return ino == seen.ino;
        return sameInode(seen) && mountId == seen.mountId;
    }

    @Override
    public String toString() {
        return "dev " + (dev >>> 8) + ":" + (dev & 0xff) + " inode " + ino + " mount " + mountId;
    }

    private static String currentNamespace() {
        try {
            String boot = Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).strip();
            return boot + "/" + Files.readSymbolicLink(Path.of("/proc/self/ns/mnt"));
        } catch (IOException | UnsupportedOperationException e) {
            return "unknown-" + ProcessHandle.current().pid();
        }
    }
}

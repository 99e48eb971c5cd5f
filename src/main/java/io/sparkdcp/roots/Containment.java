package io.sparkdcp.roots;

import io.sparkdcp.posix.DirectoryIdentity;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.PosixException;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Whether one directory lies inside another, decided by identity, not by name: from an open directory,
 * follow ".." up to "/" comparing device and inode with the outer directory. At the root of a bind
 * mount of a subdirectory, ".." leads to where the mount sits, not to the directory's real parents, so
 * those are followed too, through another mount of the same file system that shows them. And a
 * directory that is also the root of another mount of its file system (a second mount of the device,
 * or a bind mount of it, placed inside some DST) has that mount point's parents above it as well.
 * Symlinks, bind mounts and second mounts therefore cannot hide that DST is inside SRC (or SRC inside
 * DST), nor, for {@link DestinationLock}, that one run's DST is inside another's.
 */
final class Containment {
    private static final byte[] DOT = {'.'};
    private static final byte[] DOT_DOT = {'.', '.'};
    private static final int DIRECTORY = Linux.O_RDONLY | Linux.O_DIRECTORY;

    private Containment() {}

    /** A directory on the way up, open for the length of the call, and its identity. */
    interface Visit {
        /** @return true to stop the walk here */
        boolean stopAt(Fd dir, DirectoryIdentity id);
    }

    /** True when {@code dir} is {@code outer} or lies anywhere below it. */
    static boolean inside(Fd dir, DirectoryIdentity outer, MountTable mounts) {
        return upward(dir, mounts, (current, id) -> id.sameInode(outer));
    }

    /**
     * Visits {@code dir}, then every directory above it up to "/": by "..", and at the root of a mount
     * of a subdirectory also through its real parents. True when a visit stopped the walk.
     */
    static boolean upward(Fd dir, MountTable mounts, Visit visit) {
        Deque<Fd> todo = new ArrayDeque<>();
        Set<List<Long>> seen = new HashSet<>();
        MountRoots roots = new MountRoots(mounts);
        todo.add(Posix.openat(dir, DOT, DIRECTORY, 0));
        try {
            while (!todo.isEmpty()) {
                try (Fd current = todo.poll()) {
                    DirectoryIdentity id = Posix.identity(current);
                    if (!seen.add(List.of(id.dev(), id.ino(), id.mountId()))) continue;
                    if (visit.stopAt(current, id)) return true;
                    roots.alsoMounted(id, todo);
                    Fd parent = Posix.openat(current, DOT_DOT, DIRECTORY, 0);
                    DirectoryIdentity up = Posix.identity(parent);
                    if (up.mountId() != id.mountId()) addRealParent(id, mounts, todo);
                    if (up.sameInode(id) && up.mountId() == id.mountId()) parent.close(); // "/"
                    else todo.add(parent);
                }
            }
            return false;
        } finally {
            todo.forEach(Fd::close);
        }
    }

    /** At the root of a mount of a subdirectory: the same directory seen through a mount that also shows its parents. */
    private static void addRealParent(DirectoryIdentity mountRoot, MountTable mounts, Deque<Fd> todo) {
        MountTable.Mount mount = mounts.byId(mountRoot.mountId());
        if (mount == null || mount.root().equals("/")) return;
        for (MountTable.Mount wider : mounts.showingParentsOf(mount)) {
            String below = wider.root().equals("/") ? mount.root() : mount.root().substring(wider.root().length());
            String path = wider.mountPoint().equals("/") ? below : wider.mountPoint() + below;
            try {
                Fd same = Posix.openNoSymlinks(PathBytes.of(path), DIRECTORY);
                if (Posix.identity(same).sameInode(mountRoot)) todo.add(same);
                else same.close();
            } catch (PosixException e) {
                // hidden under another mount, or gone: this view shows nothing
            }
        }
    }

    /**
     * The roots of this process's mounts, each looked at once, when a directory of its device is met: where
     * the same directory is mounted again, its other mount points' parents are above it too.
     */
    private static final class MountRoots {
        private final MountTable mounts;
        private final Map<Long, DirectoryIdentity> rootOf = new HashMap<>();

        MountRoots(MountTable mounts) {
            this.mounts = mounts;
        }

        /** Adds {@code id}'s directory as seen at the point of every other mount whose root it is. */
        void alsoMounted(DirectoryIdentity id, Deque<Fd> todo) {
            for (MountTable.Mount other : mounts.ofDevice(id.dev())) {
                if (other.id() == id.mountId()) continue;
                if (!rootOf.containsKey(other.id())) rootOf.put(other.id(), identityAt(other.mountPoint()));
                DirectoryIdentity root = rootOf.get(other.id());
                if (root == null || !root.sameInode(id) || root.mountId() != other.id()) continue;
                try {
                    todo.add(Posix.openNoSymlinks(PathBytes.of(other.mountPoint()), DIRECTORY));
                } catch (PosixException e) {
                    // gone since: it shows nothing
                }
            }
        }

        /** The directory at a mount point, or null (covered by another mount, not a directory, not reachable). */
        private static DirectoryIdentity identityAt(String mountPoint) {
            try (Fd at = Posix.openNoSymlinks(PathBytes.of(mountPoint), DIRECTORY)) {
                return Posix.identity(at);
            } catch (PosixException e) {
                return null;
            }
        }
    }
}

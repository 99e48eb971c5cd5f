package io.sparkdcp.walk;

import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.FsXattr;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Stat;

import java.io.Serializable;

/**
 * One entry of the source tree as the walk saw it.
 *
 * @param path    relative to the source root; empty for the root itself
 * @param stat    its lstat
 * @param project project ID and flags of a directory (read while the walk holds it open); null for
 *                other types, when project IDs are off, or when the file system has none
 */
public record Entry(byte[] path, Stat stat, FsXattr project) implements Serializable {

    public FileType type() { return stat.type(); }

    public byte[] name() { return PathBytes.name(path); }

    public byte[] parent() { return PathBytes.parent(path); }

    public boolean isRoot() { return path.length == 0; }

    public String display() { return PathBytes.display(path); }
}

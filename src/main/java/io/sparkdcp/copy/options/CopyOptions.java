package io.sparkdcp.copy.options;

import io.sparkdcp.copy.keep.Keep;
import io.sparkdcp.copy.keep.MetadataAccess;
import io.sparkdcp.copy.keep.XattrPolicy;
import io.sparkdcp.copy.throttle.Throttle;
import io.sparkdcp.posix.DirectoryIdentity;
import io.sparkdcp.posix.PathBytes;

import java.io.Serializable;

/**
 * Everything the engine needs to know about a copy, validated once on the driver and shipped to
 * executors as is: the two roots and the request's groups the engine acts on, unchanged.
 *
 * @param roots     the two trees, pinned once the job holds them
 * @param keep      what is kept of each entry (xattrs, project IDs, flags, layouts)
 * @param modes     sync, contents comparison, atomic writes, verification, fsync, update
 * @param chunkSize files larger than this are copied in chunks of this size by several tasks
 * @param throttle  {@code --max-ops} and {@code --bwlimit}, with the JVMs sharing them
 * @param itemLog   where the tasks log each entry they act on ({@code --log}); null for no log
 */
public record CopyOptions(CopyRoots roots, Keep keep, CopyModes modes, long chunkSize, Throttle throttle,
                          ItemLogTarget itemLog) implements Serializable {

    public CopyOptions {
        if (roots == null || keep == null || modes == null || throttle == null)
            throw new IllegalArgumentException("roots, keep, modes and throttle must be given");
    }

    /** A copy between two roots not pinned yet, without limits or log. */
    public static CopyOptions between(byte[] sourceRoot, byte[] destinationRoot, Keep keep, CopyModes modes, long chunkSize) {
        return new CopyOptions(CopyRoots.of(sourceRoot, destinationRoot), keep, modes, chunkSize, Throttle.NONE, null);
    }

    // The engine's short names for what it reads most.
    public byte[] sourceRoot() { return roots.source(); }

    public byte[] destinationRoot() { return roots.destination(); }

    public DirectoryIdentity sourceId() { return roots.sourceId(); }

    public DirectoryIdentity destinationId() { return roots.destinationId(); }

    public RootFile rootFile() { return roots.file(); }

    public boolean destinationNew() { return roots.destinationNew(); }

    public XattrPolicy xattrs() { return keep.xattrs(); }

    public MetadataAccess xattrAccess() { return keep.xattrAccess(); }

    public boolean projectIds() { return keep.projectIds(); }

    public boolean flags() { return keep.flags(); }

    public boolean readsFsXattr() { return keep.readsFsXattr(); }

    /** Where the entry listed at relPath is in the source root (they differ only for a {@link RootFile} renamed in DST). */
    public byte[] sourcePath(byte[] relPath) {
        return rootFile() == null ? relPath : rootFile().sourcePath(relPath);
    }

    /** The source as the report names it: its root, or the file in it. */
    public byte[] sourceShown() {
        return rootFile() == null ? sourceRoot() : in(sourceRoot(), rootFile().sourceName());
    }

    /** The destination as the report names it: its root, or the file in it. */
    public byte[] destinationShown() {
        return rootFile() == null ? destinationRoot() : in(destinationRoot(), rootFile().destinationName());
    }

    private static byte[] in(byte[] root, byte[] name) {
        return root.length == 1 ? PathBytes.of("/" + PathBytes.display(name)) : PathBytes.join(root, name);
    }

    public CopyOptions withModes(CopyModes m) {
        return new CopyOptions(roots, keep, m, chunkSize, throttle, itemLog);
    }

    public CopyOptions withKeep(Keep k) {
        return new CopyOptions(roots, k, modes, chunkSize, throttle, itemLog);
    }

    public CopyOptions withRoots(CopyRoots r) {
        return new CopyOptions(r, keep, modes, chunkSize, throttle, itemLog);
    }

    /** The same copy with its roots pinned to these identities. */
    public CopyOptions withRootIds(DirectoryIdentity source, DirectoryIdentity destination) {
        return withRoots(roots.pinned(source, destination));
    }

    public CopyOptions withThrottle(Throttle t) {
        return new CopyOptions(roots, keep, modes, chunkSize, t, itemLog);
    }

    /** The same copy logging each entry to {@code target}. */
    public CopyOptions withItemLog(ItemLogTarget target) {
        return new CopyOptions(roots, keep, modes, chunkSize, throttle, target);
    }
}

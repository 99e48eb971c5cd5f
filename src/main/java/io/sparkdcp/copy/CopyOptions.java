package io.sparkdcp.copy;

import io.sparkdcp.posix.DirectoryIdentity;

import java.io.Serializable;

/**
 * Everything the engine needs to know about a copy, validated once on the driver and shipped to
 * executors as is.
 *
 * @param sourceRoot      absolute path of the source tree (bytes)
 * @param destinationRoot absolute path of the destination tree (bytes); it exists when the engine runs
 * @param projectIds      carry project IDs and PROJINHERIT
 * @param xattrAccess     {@code --xattr-access}: on the descriptors, or by path
 * @param chunkSize       files larger than this are copied in chunks of this size by several tasks
 * @param modes           sync, contents comparison, atomic writes, verification, fsync
 * @param sourceId        what the driver found at sourceRoot; every task checks it before writing (null: not pinned yet)
 * @param destinationId   the same for destinationRoot
 * @param inode           inode flags and Lustre layouts
 * @param throttle        {@code --max-ops} and {@code --bwlimit}, with the JVMs sharing them
 * @param rootFile        the one entry copied when the source is not a directory (the roots are then the
 *                        directories holding it); null when the roots are the trees copied
 * @param itemLog         where the tasks log each entry they act on ({@code --log}); null for no log
 */
public record CopyOptions(byte[] sourceRoot, byte[] destinationRoot, XattrPolicy xattrs,
                          MetadataAccess xattrAccess, boolean projectIds, long chunkSize, CopyModes modes,
                          DirectoryIdentity sourceId, DirectoryIdentity destinationId, InodeOptions inode,
                          Throttle throttle, RootFile rootFile, ItemLogTarget itemLog)
        implements Serializable {

    public CopyOptions(byte[] sourceRoot, byte[] destinationRoot, XattrPolicy xattrs, MetadataAccess xattrAccess,
                       boolean projectIds, long chunkSize, CopyModes modes, DirectoryIdentity sourceId,
                       DirectoryIdentity destinationId, InodeOptions inode, Throttle throttle, RootFile rootFile) {
        this(sourceRoot, destinationRoot, xattrs, xattrAccess, projectIds, chunkSize, modes, sourceId, destinationId, inode,
                throttle, rootFile, null);
    }

    public CopyOptions(byte[] sourceRoot, byte[] destinationRoot, XattrPolicy xattrs, MetadataAccess xattrAccess,
                       boolean projectIds, long chunkSize, CopyModes modes, DirectoryIdentity sourceId,
                       DirectoryIdentity destinationId) {
        this(sourceRoot, destinationRoot, xattrs, xattrAccess, projectIds, chunkSize, modes, sourceId, destinationId,
                InodeOptions.DEFAULT, Throttle.NONE, null);
    }

    /** Roots not pinned yet: the job pins them when it starts. */
    public CopyOptions(byte[] sourceRoot, byte[] destinationRoot, XattrPolicy xattrs, MetadataAccess xattrAccess,
                       boolean projectIds, long chunkSize, CopyModes modes) {
        this(sourceRoot, destinationRoot, xattrs, xattrAccess, projectIds, chunkSize, modes, null, null);
    }

    /** A plain copy. */
    public CopyOptions(byte[] sourceRoot, byte[] destinationRoot, XattrPolicy xattrs, MetadataAccess xattrAccess,
                       boolean projectIds, long chunkSize) {
        this(sourceRoot, destinationRoot, xattrs, xattrAccess, projectIds, chunkSize, CopyModes.COPY);
    }

    public CopyOptions {
        if (sourceRoot.length == 0 || sourceRoot[0] != '/') throw new IllegalArgumentException("source root must be absolute");
        if (destinationRoot.length == 0 || destinationRoot[0] != '/') throw new IllegalArgumentException("destination root must be absolute");
        if (modes == null) throw new IllegalArgumentException("modes must be given");
        if (inode == null) throw new IllegalArgumentException("inode options must be given");
        if (throttle == null) throw new IllegalArgumentException("throttle must be given");
    }

    /** Inode flags are carried (not --no-flags). */
    public boolean flags() { return inode.flags(); }

    /** Whether the struct fsxattr of sources is read: for project IDs or for flags. */
    public boolean readsFsXattr() { return projectIds || inode.flags(); }

    public CopyOptions withModes(CopyModes m) {
        return new CopyOptions(sourceRoot, destinationRoot, xattrs, xattrAccess, projectIds, chunkSize, m, sourceId, destinationId, inode, throttle, rootFile, itemLog);
    }

    /** The same copy with its roots pinned to these identities. */
    public CopyOptions withRootIds(DirectoryIdentity source, DirectoryIdentity destination) {
        return new CopyOptions(sourceRoot, destinationRoot, xattrs, xattrAccess, projectIds, chunkSize, modes, source, destination, inode, throttle, rootFile, itemLog);
    }

    public CopyOptions withInode(InodeOptions i) {
        return new CopyOptions(sourceRoot, destinationRoot, xattrs, xattrAccess, projectIds, chunkSize, modes, sourceId, destinationId, i, throttle, rootFile, itemLog);
    }

    public CopyOptions withThrottle(Throttle t) {
        return new CopyOptions(sourceRoot, destinationRoot, xattrs, xattrAccess, projectIds, chunkSize, modes, sourceId, destinationId, inode, t, rootFile, itemLog);
    }

    /** The same roots holding one entry to copy (null: the roots are the trees). */
    public CopyOptions withRootFile(RootFile f) {
        return new CopyOptions(sourceRoot, destinationRoot, xattrs, xattrAccess, projectIds, chunkSize, modes, sourceId, destinationId, inode, throttle, f, itemLog);
    }

    /** Where the entry listed at relPath is in the source root (they differ only for a {@link RootFile} renamed in DST). */
    public byte[] sourcePath(byte[] relPath) {
        return rootFile == null ? relPath : rootFile.sourcePath(relPath);
    }

    /** The source as the report names it: its root, or the file in it. */
    public byte[] sourceShown() {
        return rootFile == null ? sourceRoot : in(sourceRoot, rootFile.sourceName());
    }

    /** The destination as the report names it: its root, or the file in it. */
    public byte[] destinationShown() {
        return rootFile == null ? destinationRoot : in(destinationRoot, rootFile.destinationName());
    }

    private static byte[] in(byte[] root, byte[] name) {
        return root.length == 1 ? io.sparkdcp.posix.PathBytes.of("/" + io.sparkdcp.posix.PathBytes.display(name))
                : io.sparkdcp.posix.PathBytes.join(root, name);
    }

    /** The same copy logging each entry to {@code target}. */
    public CopyOptions withItemLog(ItemLogTarget target) {
        return new CopyOptions(sourceRoot, destinationRoot, xattrs, xattrAccess, projectIds, chunkSize, modes, sourceId, destinationId, inode, throttle, rootFile, target);
    }
}

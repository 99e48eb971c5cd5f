package io.sparkdcp.bench.latencyfs;

/**
 * The kinds of request the latency file system can delay. The kernel's internal open and release
 * around a project-ID ioctl are kinds of their own: a Lustre client needs no round trip for them.
 */
public enum MetadataOp {
    GETATTR, OPEN, OPEN_INTERNAL, CREATE, RELEASE, RELEASE_INTERNAL, OPENDIR, READDIR, RELEASEDIR,
    MKDIR, MKNOD, SYMLINK, READLINK, LINK, UNLINK, RMDIR, RENAME, CHOWN, CHMOD, UTIMENS, TRUNCATE,
    GETXATTR, SETXATTR, LISTXATTR, REMOVEXATTR, IOCTL_GET, IOCTL_SET, FSYNC
}

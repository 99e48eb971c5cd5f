package io.sparkdcp.bench.latencyfs;

/**
 * The kinds of request the latency file system can delay. The kernel's internal open and release
 * around a project-ID ioctl are kinds of their own: a Lustre client needs no round trip for them.
 * {@code GETATTR_REPLY} is not a request of the kernel's: libfuse's high-level layer calls getattr
 * to fill the reply of a create, mkdir, symlink, link, mknod or setattr it is serving, so it
 * belongs to that request's round trip (a Lustre reply carries the attributes) and no profile delays it.
 */
public enum MetadataOp {
    GETATTR, GETATTR_REPLY, OPEN, OPEN_INTERNAL, CREATE, RELEASE, RELEASE_INTERNAL, OPENDIR, READDIR, RELEASEDIR,
    MKDIR, MKNOD, SYMLINK, READLINK, LINK, UNLINK, RMDIR, RENAME, CHOWN, CHMOD, UTIMENS, TRUNCATE,
    GETXATTR, SETXATTR, LISTXATTR, REMOVEXATTR, IOCTL_GET, IOCTL_SET, FSYNC
}

package io.sparkdcp.copy;

import io.sparkdcp.copy.decision.Protection;
import io.sparkdcp.posix.FsXattr;
import io.sparkdcp.posix.Linux;

/**
 * What a destination directory gives the entries created in it, read once per directory per task,
 * so the copier knows without asking each new file whether owner and project ID still need setting.
 *
 * @param gid        the directory's group, which new entries take when it is setgid
 * @param setgid     whether the directory is setgid
 * @param project    its project ID and flags, or null when neither project IDs nor flags are carried, or unsupported
 * @param defaultAcl whether it has a default ACL, which new entries inherit as an access ACL
 * @param protectedLocks its immutable and append-only bits that its source directory does not carry:
 *                   non-zero, no name is made or removed in it ({@link Protection})
 */
record ParentState(int gid, boolean setgid, FsXattr project, boolean defaultAcl, int protectedLocks) {

    /** The group a new entry gets here when created by a process whose effective group is egid. */
    int groupOfNewEntry(int egid) { return setgid ? gid : egid; }

    /** Project ID a new entry gets here: the parent's when it has PROJINHERIT, else 0. */
    int projectOfNewEntry() { return project != null && project.projInherit() ? project.projid() : 0; }

    /**
     * What a new file gets at create time: PROJINHERIT gives the parent's ID, never the flag. Null:
     * unknown, when the parent has no such struct or passes flags on (XFS gives new entries its
     * nodump, noatime, sync, nodefrag, dax and extent-size hints).
     */
    FsXattr projectOfNewFile() {
        if (project == null || (project.xflags() & FsXattr.PASSED_ON) != 0) return null;
        return new FsXattr(0, 0, 0, projectOfNewEntry(), 0);
    }

    /** What a new directory gets at mkdir time: under PROJINHERIT, the parent's ID and the flag too. */
    FsXattr projectOfNewDirectory() {
        if (project == null || (project.xflags() & FsXattr.PASSED_ON) != 0) return null; // as for files
        return new FsXattr(project.projInherit() ? Linux.FS_XFLAG_PROJINHERIT : 0, 0, 0, projectOfNewEntry(), 0);
    }
}

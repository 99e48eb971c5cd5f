package io.sparkdcp.copy;

import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.posix.FsXattr;

/**
 * What of a source's struct fsxattr its copy must hold: the project ID with PROJINHERIT (unless
 * --no-projid) and the kept flags with their hints (unless --no-flags).
 */
public record WantedFsXattr(FsXattr source, boolean project, boolean flags) {

    /** Null when nothing is carried (source null: its file system has no such struct). */
    static WantedFsXattr of(FsXattr source, CopyOptions options) {
        if (source == null || !options.readsFsXattr()) return null;
        return new WantedFsXattr(source, options.projectIds(), options.flags());
    }

    /** Whether current already holds it; lock bits counted only when withLocks. */
    boolean heldBy(FsXattr current, boolean withLocks) {
        if (project && (current.projid() != source.projid() || current.projInherit() != source.projInherit())) return false;
        return !flags || current.sameKept(source, withLocks);
    }

    /** current with what is wanted; lock bits only when withLocks (else current's, which the caller cleared). */
    FsXattr applyTo(FsXattr current, boolean withLocks) {
        FsXattr out = project ? current.withProject(source.projid(), source.projInherit()) : current;
        return flags ? out.withKept(source, withLocks) : out;
    }

    /** The source is immutable or append-only, and flags are carried: a last step sets that. */
    boolean locks() {
        return flags && source.locks() != 0;
    }

    /** A flag or hint a destination without the ioctl would lose (the project part fails on its own). */
    boolean carriesFlags() {
        return flags && (source.keptFlags() != 0);
    }

    /** A project ID other than "none" to carry. */
    boolean carriesProject() {
        return project && (source.projid() != 0 || source.projInherit());
    }
}

package io.sparkdcp.copy;

import io.sparkdcp.posix.Errno;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.FsXattr;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.NativeBuffer;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.PosixException;
import io.sparkdcp.posix.Stat;
import io.sparkdcp.walk.Entry;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Sync's way with an existing destination entry whose data is already right: compare owner, mode,
 * times, kept xattrs and project ID, and set only what differs, on the open descriptors, in the
 * writer's order. The data is never rewritten here.
 */
final class MetadataSync {
    private static final int OPEN_EXISTING = Linux.O_RDONLY | Linux.O_NOFOLLOW | Linux.O_NONBLOCK;

    private final CopyContext ctx;
    private final NativeBuffer buffer = new NativeBuffer(64 * 1024);
    private final ContentComparer contents = new ContentComparer();

    MetadataSync(CopyContext ctx) { this.ctx = ctx; }

    /** Whether the existing file may keep its data: same size, and same mtime (or, with --contents, same bytes). */
    private boolean sameDataByStat(Entry e, Stat existing) {
        if (existing.type() != FileType.FILE || existing.size() != e.stat().size()) return false;
        return ctx.options.modes().compareContents() || ctx.sameMtime(e.stat(), existing);
    }

    /**
     * An existing regular file where the source's goes: true when it stays — identical (skipped), or
     * in sync with the same data (its metadata fixed) — false when the data must be written anew.
     */
    boolean keptInPlace(Entry e, Fd dir, byte[] name, Stat existing, CopyCounts counts) {
        if (ctx.options.modes().sync()) return keepFile(e, dir, name, existing, counts);
        if (!ctx.unchanged(e, existing)) return false;
        counts.addSkipped(FileType.FILE);
        return true;
    }

    /**
     * Handles an existing regular file: true when it keeps its data (counted as skipped or
     * metadata fixed), false when the caller must copy the data again.
     */
    private boolean keepFile(Entry e, Fd dir, byte[] name, Stat existing, CopyCounts counts) {
        if (!sameDataByStat(e, existing)) return false;
        Fd dst = null;
        Fd src = null;
        try {
            dst = openExisting(dir, name);
            src = ctx.openSource(e);
            if (ctx.options.modes().compareContents() && !contents.equal(src, dst, e.stat().size(), ctx.steps)) return false;
            FsXattr project = ctx.options.projectIds() ? ctx.metadata.readProject(src, e.path()) : null;
            List<Xattr> wanted = ctx.metadata.readXattrs(src, e.path());
            if (fix(dst, e, existing, wanted, project)) counts.addMetadataFixed(FileType.FILE);
            else counts.addSkipped(FileType.FILE);
            return true;
        } finally {
            ctx.timedClose(src);
            ctx.timedClose(dst);
        }
    }

    /**
     * An existing directory after its children: fix what differs. A source directory we may not open
     * was reported by the walk: its owner, mode and times are still fixed, its xattrs left as they are.
     */
    void directory(Entry e, Fd dst, Stat existing, CopyCounts counts, boolean created) {
        Fd src = openUnlessUnreadable(ctx, e);
        List<Xattr> wanted = src == null ? null : ctx.metadata.readXattrs(src, e.path());
        boolean changed = fix(dst, e, existing, wanted, ctx.options.projectIds() ? e.project() : null);
        ctx.forgetParentState(e.path());
        if (src == null) return; // failed once, by the walk
        if (created) counts.addCopied(FileType.DIRECTORY);
        else if (changed) counts.addMetadataFixed(FileType.DIRECTORY);
        else counts.addSkipped(FileType.DIRECTORY);
    }

    /** A symlink or special file that is already the right thing: owner, mode and times by name. */
    void byName(Entry e, Fd dir, byte[] name, Stat existing, CopyCounts counts) {
        boolean ownerDiffers = ctx.writer.ownerDiffers(e.stat(), existing.uid(), existing.gid());
        boolean modeDiffers = e.type() != FileType.SYMLINK && e.stat().permissions() != existing.permissions();
        if (!ownerDiffers && !modeDiffers && ctx.sameMtime(e.stat(), existing)) {
            counts.addSkipped(e.type());
            return;
        }
        ctx.writer.applyOwnerAt(dir, name, e.stat(), existing.uid(), existing.gid());
        if (e.type() != FileType.SYMLINK) Posix.chmodAt(dir, name, e.stat().permissions());
        ctx.writer.applyTimesAt(dir, name, e.stat());
        counts.addMetadataFixed(e.type());
    }

    /**
     * The source directory, or null when we may not open it: then the walk could not list it either,
     * and reported it.
     */
    static Fd openUnlessUnreadable(CopyContext ctx, Entry e) {
        try {
            return ctx.source.get(e.path());
        } catch (PosixException ex) {
            if (ex.errno() == Errno.EACCES) return null;
            throw ex;
        }
    }

    /** Sets on dst what differs from the source (wanted null: xattrs unknown, left as they are); true when anything was set. */
    private boolean fix(Fd dst, Entry e, Stat existing, List<Xattr> wantedOrNull, FsXattr project) {
        Stat src = e.stat();
        List<Xattr> present = FdMetadataIO.readKept(listXattrs(dst), ctx.options.xattrs(), ctx.steps,
                n -> Posix.fgetxattr(dst, n, buffer));
        List<Xattr> wanted = wantedOrNull == null ? present : wantedOrNull;
        FsXattr current = project != null ? FdMetadataIO.projectOrNull(dst, ctx.steps) : null;
        boolean ownerDiffers = ctx.writer.ownerDiffers(src, existing.uid(), existing.gid());
        boolean projectDiffers = project != null
                && (current == null || current.projid() != project.projid() || current.projInherit() != project.projInherit());
        List<Xattr> toSet = ownerDiffers ? wanted : missingOrDifferent(wanted, present); // chown drops security.capability
        List<Xattr> toRemove = missingOrDifferent(present, wanted).stream().filter(x -> find(wanted, x.name()) == null).toList();
        boolean same = !ownerDiffers && !projectDiffers && toSet.isEmpty() && toRemove.isEmpty()
                && src.permissions() == existing.permissions() && ctx.sameMtime(src, existing);
        if (same) return false;
        for (Xattr x : toRemove) Posix.fremovexattr(dst, x.name());
        ctx.writer.apply(dst, e.path(), src, existing.uid(), existing.gid(), toSet, projectDiffers ? project : null, current);
        return true;
    }

    private List<byte[]> listXattrs(Fd dst) {
        if (ctx.options.xattrs().copiesNothing()) return List.of();
        long t = System.nanoTime();
        try {
            return Posix.flistxattr(dst, buffer);
        } finally {
            ctx.steps.record(Step.XATTR_LIST, System.nanoTime() - t);
        }
    }

    /** The xattrs of a that b lacks or holds with another value. */
    private static List<Xattr> missingOrDifferent(List<Xattr> a, List<Xattr> b) {
        List<Xattr> out = new ArrayList<>();
        for (Xattr x : a) {
            Xattr other = find(b, x.name());
            if (other == null || !Arrays.equals(other.value(), x.value())) out.add(x);
        }
        return out;
    }

    private static Xattr find(List<Xattr> list, byte[] name) {
        for (Xattr x : list) if (Arrays.equals(x.name(), name)) return x;
        return null;
    }

    private Fd openExisting(Fd dir, byte[] name) {
        long t = System.nanoTime();
        try {
            return Posix.openat(dir, name, OPEN_EXISTING, 0);
        } finally {
            ctx.steps.record(Step.OPEN_DST, System.nanoTime() - t);
        }
    }
}

package io.sparkdcp.copy;

import io.sparkdcp.copy.compare.ContentComparer;
import io.sparkdcp.copy.compare.Difference;
import io.sparkdcp.copy.decision.Decision;
import io.sparkdcp.copy.steps.Step;
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

import java.util.List;
import java.util.Set;

/**
 * What happens to an existing destination entry the {@link Decision} keeps: in sync, its owner, mode,
 * times, kept xattrs and project ID are compared and only what differs is set, on the open
 * descriptors, in the writer's order; a copy keeps only what is identical. The data is never
 * rewritten here.
 */
final class MetadataSync {
    private static final int OPEN_EXISTING = Linux.O_RDONLY | Linux.O_NOFOLLOW | Linux.O_NONBLOCK;

    private final CopyContext ctx;
    private final NativeBuffer buffer = new NativeBuffer(64 * 1024);
    private final ContentComparer contents = new ContentComparer();

    MetadataSync(CopyContext ctx) { this.ctx = ctx; }


    /**
     * The keeper of regular files ({@link CreateOrReplace.Keeper}): an existing file the decision keeps
     * is compared further (with --contents, its bytes; in sync, xattrs and project ID), given the
     * metadata that differs and counted. Returns REPLACE when its bytes differ after all.
     */
    Decision keepFile(Entry e, Fd dir, Stat existing, Decision d, CopyCounts counts) {
        // A copy keeps only what is identical; --update keeps a newer file as it is.
        if (!ctx.options.modes().sync() || d.kind() == Decision.Kind.KEEP_NEWER) return counted(e, new Fixed(d, Set.of()), counts);
        Fd dst = null;
        Fd src = null;
        try {
            dst = openExisting(dir, e.name());
            boolean comparesData = Decision.comparesData(e.stat(), ctx.options.modes());
            src = ctx.openSource(e);
            if (comparesData)
                d = d.afterComparingData(contents.equal(src, dst, e.stat().size(), ctx.steps));
            if (!d.keeps()) return d;
            WantedFsXattr fsx = ctx.wanted(ctx.readFsXattr(src, e.path()));
            List<Xattr> wanted = ctx.metadata.readXattrs(src, e.path());
            return counted(e, fix(dst, e, existing, d, wanted, fsx), counts);
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
        WantedFsXattr fsx = ctx.wanted(DirectoryCopier.sourceFsXattr(ctx, e, src));
        Decision d = ctx.decide(e, existing);
        if (d.kind() == Decision.Kind.REFUSE) throw d.refusal(e.stat(), e.path());
        Fixed fixed = fix(dst, e, existing, d, wanted, fsx);
        ctx.forgetParentState(e.path());
        if (src == null) return; // failed once, by the walk
        if (created) counts.addCopied(e);
        else counted(e, fixed, counts);
    }

    /**
     * The keeper of symlinks and special files, which cannot be opened: the decision (after the
     * symlink's target was compared) is carried out on owner, mode and times by name.
     */
    Decision byName(Entry e, Fd dir, Stat existing, Decision d, CopyCounts counts) {
        if (!d.keeps()) return d;
        if (d.kind() == Decision.Kind.FIX_METADATA) {
            ctx.writer.applyOwnerAt(dir, e.name(), e.path(), e.stat(), existing.uid(), existing.gid());
            if (e.type() != FileType.SYMLINK) Posix.chmodAt(dir, e.name(), e.stat().permissions());
            ctx.writer.applyTimesAt(dir, e.name(), e.stat());
        }
        Set<Difference.Kind> kinds = MetadataChanges.byStat(e.stat(), existing, ctx.euid, ctx.timeWindowNanos(), ctx.options.flags()).kinds();
        return counted(e, new Fixed(d, kinds), counts);
    }

    private static Decision counted(Entry e, Fixed fixed, CopyCounts counts) {
        Decision d = fixed.decision();
        if (d.kind() == Decision.Kind.FIX_METADATA) counts.addMetadataFixed(e, fixed.kinds());
        else if (d.kind() == Decision.Kind.KEEP_NEWER) counts.addKeptNewer(e);
        else counts.addSkipped(e);
        return d;
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

    /**
     * Compares the kept xattrs (wantedOrNull null: unknown, left as they are) and project ID too
     * ({@link MetadataChanges}), and sets on dst all that differs; returns the decision with those
     * differences counted in, and the kinds set for the item log.
     */
    private Fixed fix(Fd dst, Entry e, Stat existing, Decision d, List<Xattr> wantedOrNull, WantedFsXattr fsx) {
        Stat src = e.stat();
        List<Xattr> present = FdMetadataIO.readKept(listXattrs(dst), ctx.options.xattrs(), ctx.steps,
                n -> Posix.fgetxattr(dst, n, buffer));
        List<Xattr> wanted = wantedOrNull == null ? present : wantedOrNull;
        FsXattr current = fsx != null ? FdMetadataIO.projectOrNull(dst, ctx.steps) : null;
        MetadataChanges changes = MetadataChanges.of(src, existing, ctx.euid, ctx.timeWindowNanos(), ctx.options.flags(),
                wanted, present, fsx, current);
        d = d.afterComparingExtras(changes.extrasDiffer());
        if (d.kind() == Decision.Kind.SKIP) return new Fixed(d, changes.kinds());
        int locks = current != null ? current.locks() : existing.locks();
        if (d.unlocksFirst(locks)) current = ctx.unlocker.unlock(dst, e);
        for (Xattr x : changes.toRemove()) Posix.fremovexattr(dst, x.name());
        ctx.writer.apply(dst, e.path(), src, existing.uid(), existing.gid(), changes.toSet(), fsx, current);
        return new Fixed(d, changes.kinds());
    }

    /** A kept entry's decision once compared, and the kinds of metadata set on it. */
    private record Fixed(Decision decision, Set<Difference.Kind> kinds) {}

    private List<byte[]> listXattrs(Fd dst) {
        if (ctx.options.xattrs().copiesNothing()) return List.of();
        return ctx.steps.time(Step.XATTR_LIST, () -> Posix.flistxattr(dst, buffer));
    }

    private Fd openExisting(Fd dir, byte[] name) {
        return ctx.steps.time(Step.OPEN_DST, () -> Posix.openat(dir, name, OPEN_EXISTING, 0));
    }
}

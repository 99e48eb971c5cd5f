package io.sparkdcp.copy;

import io.sparkdcp.copy.compare.Difference;
import io.sparkdcp.copy.decision.Ownership;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.FsXattr;
import io.sparkdcp.posix.Stat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * What sync sets on an existing destination entry it keeps, from what was read of both sides: the kinds of
 * metadata that differ (named as compare names them: the words of a {@code fixed} line in the item log) and
 * the xattrs to set and remove. The one rule of the run ({@link MetadataSync}) and of its dry run
 * ({@link KeptEntryReader}), so the two cannot tell different stories.
 *
 * @param fsxDiffers the project ID, PROJINHERIT or kept flags are to be set
 */
record MetadataChanges(Set<Difference.Kind> kinds, List<Xattr> toSet, List<Xattr> toRemove, boolean fsxDiffers) {

    /** What the stats alone tell (a symlink, FIFO or device, whose xattrs and struct are not carried). */
    static MetadataChanges byStat(Stat source, Stat existing, int euid, long windowNanos, boolean flags) {
        return of(source, existing, euid, windowNanos, flags, List.of(), List.of(), null, null);
    }

    /**
     * @param wanted  the source's kept xattrs
     * @param present the destination's kept xattrs
     * @param fsx     what of the source's struct the copy must hold (null: nothing)
     * @param current the destination's struct (null: its file system has none)
     */
    static MetadataChanges of(Stat source, Stat existing, int euid, long windowNanos, boolean flags, List<Xattr> wanted,
                              List<Xattr> present, WantedFsXattr fsx, FsXattr current) {
        EnumSet<Difference.Kind> kinds = EnumSet.noneOf(Difference.Kind.class);
        if (source.type() != FileType.SYMLINK && source.permissions() != existing.permissions()) kinds.add(Difference.Kind.MODE);
        boolean ownerDiffers = Ownership.differs(source, existing.uid(), existing.gid(), euid);
        if (ownerDiffers && euid == 0 && source.uid() != existing.uid()) kinds.add(Difference.Kind.OWNER);
        if (ownerDiffers && source.gid() != existing.gid()) kinds.add(Difference.Kind.GROUP);
        if (!source.sameMtime(existing, windowNanos)) kinds.add(Difference.Kind.MTIME);
        if (flags && source.locks() != existing.locks()) kinds.add(Difference.Kind.FLAGS);
        List<Xattr> differing = missingOrDifferent(wanted, present);
        List<Xattr> toRemove = missingOrDifferent(present, wanted).stream().filter(x -> find(wanted, x.name()) == null).toList();
        for (Xattr x : differing) kinds.add(kindOf(x));
        for (Xattr x : toRemove) kinds.add(kindOf(x));
        boolean fsxDiffers = fsx != null && fsxKinds(fsx, current, kinds);
        List<Xattr> toSet = ownerDiffers ? wanted : differing; // chown drops security.capability
        return new MetadataChanges(kinds, toSet, toRemove, fsxDiffers);
    }

    /** Adds the kinds of the struct that differ; true when it is to be set. */
    private static boolean fsxKinds(WantedFsXattr fsx, FsXattr current, Set<Difference.Kind> kinds) {
        if (current == null) { // fails, or is noticed, in the writer
            if (fsx.carriesProject()) kinds.add(Difference.Kind.PROJECT_ID);
            if (fsx.carriesFlags()) kinds.add(Difference.Kind.FLAGS);
            return fsx.carriesProject() || fsx.carriesFlags();
        }
        if (fsx.heldBy(current, true)) return false;
        FsXattr source = fsx.source();
        if (fsx.project() && source.projid() != current.projid()) kinds.add(Difference.Kind.PROJECT_ID);
        if (fsx.project() && source.projInherit() != current.projInherit()) kinds.add(Difference.Kind.PROJINHERIT);
        if (fsx.flags() && !current.sameKept(source, true))
            kinds.add(source.keptFlags() != current.keptFlags() ? Difference.Kind.FLAGS : Difference.Kind.EXTENT_HINTS);
        return true;
    }

    /** Xattrs or the struct are to be set: metadata the stats do not show. */
    boolean extrasDiffer() {
        return fsxDiffers || !toSet.isEmpty() || !toRemove.isEmpty();
    }

    private static Difference.Kind kindOf(Xattr x) {
        return Xattr.isAcl(x.name()) ? Difference.Kind.ACL : Difference.Kind.XATTR;
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
}

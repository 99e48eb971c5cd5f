package io.sparkdcp.copy;

import io.sparkdcp.copy.compare.ContentComparer;
import io.sparkdcp.copy.compare.Difference;
import io.sparkdcp.copy.decision.Decision;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.copy.steps.StepRecorder;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.PosixException;
import io.sparkdcp.walk.Entry;

import java.io.Serializable;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The dry run's look at an entry both trees have, as the run looks at it before keeping it ({@link MetadataSync}):
 * a symlink's target, and in sync, with --contents, a file's bytes, then the kept xattrs (ACLs among them), the
 * project ID with PROJINHERIT and the kept flags of files and directories, read on one read-only descriptor per
 * side (O_NOFOLLOW, O_NOATIME where allowed, O_NONBLOCK, checked to be the inode the walk listed) by the engine's
 * readers, and judged by the run's own {@link MetadataChanges}. Nothing is written on either side.
 */
public final class KeptEntryReader implements AutoCloseable {
    private static final StepRecorder UNTIMED = (step, nanos) -> {};

    private final CopyOptions options;
    private final int euid;
    private final Fd sourceRoot;
    private final Fd destinationRoot;
    private final DirectoryCache sourceDirs;
    private final DirectoryCache destinationDirs;
    private final FdMetadataIO reader;
    private final ContentComparer contents = new ContentComparer();

    /** What the run would do with an entry once it read it, and the kinds of metadata it would set (empty unless fixed). */
    public record Judged(Decision decision, Set<Difference.Kind> kinds) implements Serializable {}

    /** Opens both roots, checked against the identities the driver pinned. */
    public KeptEntryReader(CopyOptions options, int euid) {
        this.options = options;
        this.euid = euid;
        RootCheck.Both roots = RootCheck.openBoth(options);
        this.sourceRoot = roots.source();
        this.destinationRoot = roots.destination();
        this.sourceDirs = new DirectoryCache(sourceRoot, UNTIMED);
        this.destinationDirs = new DirectoryCache(destinationRoot, UNTIMED);
        this.reader = new FdMetadataIO(options.xattrs(), UNTIMED, false, new FlagRefusals(options.keep().strict()));
    }

    /**
     * @param byStat what {@link Decision#of} made of the two stats; an entry it does not keep is not read
     * @return the decision once read; an entry that cannot be read is refused with the reason, as the run fails it
     */
    public Judged judge(Entry source, Entry destination, Decision byStat) {
        if (!byStat.keeps() || byStat.kind() == Decision.Kind.KEEP_NEWER) return new Judged(byStat, Set.of());
        try {
            return read(source, destination, byStat);
        } catch (PosixException e) {
            return new Judged(new Decision(Decision.Kind.REFUSE, e.getMessage()), Set.of());
        } catch (EntryComparer.ChangedSinceWalk e) {
            return new Judged(new Decision(Decision.Kind.REFUSE, e.getMessage()), Set.of());
        }
    }

    private Judged read(Entry s, Entry d, Decision decision) {
        boolean sync = options.modes().sync();
        return switch (s.type()) {
            case SYMLINK -> {
                byte[] x = Posix.readlinkat(sourceDirs.get(s.parent()), PathBytes.name(options.sourcePath(s.path())));
                byte[] y = Posix.readlinkat(destinationDirs.get(d.parent()), d.name());
                yield byStat(s, d, decision.afterComparingData(Arrays.equals(x, y)));
            }
            case FILE, DIRECTORY -> sync ? byDescriptors(s, d, decision) : new Judged(decision, Set.of());
            default -> byStat(s, d, decision);
        };
    }

    /** A symlink, FIFO or device: what its stat shows is all the run sets. */
    private Judged byStat(Entry s, Entry d, Decision decision) {
        if (decision.kind() != Decision.Kind.FIX_METADATA) return new Judged(decision, Set.of());
        return new Judged(decision, MetadataChanges.byStat(s.stat(), d.stat(), euid, 0, options.flags()).kinds());
    }

    private Judged byDescriptors(Entry s, Entry d, Decision decision) {
        Fd x = null;
        Fd y = null;
        try {
            x = EntryComparer.open(sourceDirs, s, options.sourcePath(s.path()), "source");
            y = EntryComparer.open(destinationDirs, d, d.path(), "destination");
            if (Decision.comparesData(s.stat(), options.modes()))
                decision = decision.afterComparingData(contents.equal(x, y, s.stat().size(), UNTIMED));
            if (!decision.keeps()) return new Judged(decision, Set.of());
            Fd dst = y;
            WantedFsXattr fsx = WantedFsXattr.of(options.readsFsXattr() ? reader.readFsXattr(x, s.path()) : null, options);
            List<Xattr> wanted = reader.readXattrs(x, s.path());
            List<Xattr> present = reader.readXattrs(dst, d.path());
            MetadataChanges changes = MetadataChanges.of(s.stat(), d.stat(), euid, 0, options.flags(), wanted, present, fsx,
                    fsx != null ? FdMetadataIO.projectOrNull(dst, UNTIMED) : null);
            decision = decision.afterComparingExtras(changes.extrasDiffer());
            return new Judged(decision, decision.kind() == Decision.Kind.FIX_METADATA ? changes.kinds() : Set.of());
        } finally {
            if (x != null && x != sourceRoot) x.close();
            if (y != null && y != destinationRoot) y.close();
        }
    }

    /**
     * The kinds a kept directory whose entries the run changes is fixed in besides: its mtime, which that moves,
     * and its locks when the run cleared them to change its names ({@link io.sparkdcp.copy.decision.Protection#unlockedForNames}).
     */
    public static Set<Difference.Kind> withChildrenChanged(Set<Difference.Kind> kinds, boolean unlocked) {
        EnumSet<Difference.Kind> out = kinds.isEmpty() ? EnumSet.noneOf(Difference.Kind.class) : EnumSet.copyOf(kinds);
        out.add(Difference.Kind.MTIME);
        if (unlocked) out.add(Difference.Kind.FLAGS);
        return out;
    }

    @Override
    public void close() {
        try {
            sourceDirs.close();
            destinationDirs.close();
        } finally {
            try {
                sourceRoot.close();
            } finally {
                destinationRoot.close();
            }
        }
    }
}

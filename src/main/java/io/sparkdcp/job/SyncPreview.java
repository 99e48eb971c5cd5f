package io.sparkdcp.job;

import io.sparkdcp.copy.Failure;
import io.sparkdcp.copy.Ownership;
import io.sparkdcp.plan.DeletionPlanner;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.FsXattr;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.Stat;
import io.sparkdcp.walk.Entry;
import io.sparkdcp.walk.Listing;
import io.sparkdcp.walk.TreeWalker;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code sync --dry-run} shows: the actions a sync would take, judged from the two walks
 * alone, with nothing written. Stat-level only: xattrs and project IDs of files, symlink targets,
 * and with --contents the bytes, are compared only by a real run.
 *
 * @param deletionRefused why nothing would be deleted, or null
 */
public record SyncPreview(List<Entry> copy, List<Entry> fixMetadata, List<Entry> delete, long unchanged,
                          List<Failure> sourceErrors, String deletionRefused) {

    /** The sync action for one source entry, given what the destination has at its path (or null). */
    public enum Action { COPY, FIX_METADATA, UNCHANGED }

    public static SyncPreview of(JobOptions options, boolean delete, boolean destinationExists) {
        boolean projects = options.copy().projectIds();
        Listing source = SourceListing.of(options, null, line -> {});
        Listing destination = destinationExists
                ? new TreeWalker(options.walkThreads(), projects).walk(options.copy().destinationRoot())
                : new Listing(List.of(), List.of());
        Map<ByteBuffer, Entry> there = new HashMap<>();
        for (Entry d : destination.entries()) there.put(ByteBuffer.wrap(d.path()), d);
        int euid = Posix.geteuid();
        List<Entry> copy = new ArrayList<>();
        List<Entry> fix = new ArrayList<>();
        long unchanged = 0;
        for (Entry e : source.entries()) {
            switch (decide(e, there.get(ByteBuffer.wrap(e.path())), options.copy().modes().compareContents(), euid)) {
                case COPY -> copy.add(e);
                case FIX_METADATA -> fix.add(e);
                case UNCHANGED -> unchanged++;
            }
        }
        String refused = null;
        List<Entry> deletions = List.of();
        if (delete && !source.complete()) {
            refused = "the walk of the source reported " + source.errors().size() + " error(s)";
        } else if (delete) {
            deletions = DeletionScope.withoutMounts(DeletionPlanner.deepestFirst(source, destination),
                    options.copy().destinationRoot(), spared -> {}).stream().flatMap(List::stream).toList();
        }
        return new SyncPreview(copy, fix, deletions, unchanged, source.errors(), refused);
    }

    /** Sync's rule: data is recopied when type, size or mtime differ (mtime not with --contents); else metadata is compared. */
    public static Action decide(Entry src, Entry dst, boolean compareContents, int euid) {
        if (dst == null || dst.type() != src.type()) return Action.COPY;
        Stat s = src.stat();
        Stat d = dst.stat();
        if (s.type() == FileType.FILE && (s.size() != d.size() || (!compareContents && !s.sameMtime(d)))) return Action.COPY;
        if (s.type() == FileType.SYMLINK && s.size() != d.size()) return Action.COPY;
        if (s.type().isSpecial() && s.rdev() != d.rdev()) return Action.COPY;
        boolean modeDiffers = s.type() != FileType.SYMLINK && s.permissions() != d.permissions();
        boolean same = !modeDiffers && s.sameMtime(d) && !Ownership.differs(s, d.uid(), d.gid(), euid)
                && sameProject(src.project(), dst.project());
        return same ? Action.UNCHANGED : Action.FIX_METADATA;
    }

    private static boolean sameProject(FsXattr a, FsXattr b) {
        if (a == null || b == null) return true; // only directories carry it in a listing
        return a.projid() == b.projid() && a.projInherit() == b.projInherit();
    }
}

package io.sparkdcp.roots;

import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Stat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The sources as users give them, mapped onto DST by rsync's rule: {@code SRC/} (or {@code SRC/.})
 * means SRC's contents and maps onto DST itself; {@code SRC} means SRC itself and maps onto
 * {@code DST/name}. The mapping never depends on whether DST exists, so a second run finds what the
 * first made and copies nothing (cp's rule would make {@code DST/A/A}). Everything is checked here,
 * before anything is written: each pair by {@link Roots} (SRC an existing directory, neither inside
 * the other by identity; or SRC a file, a symlink, a special file: DST/name, or DST itself for a single
 * one when DST is not a directory, as rsync does), two sources mapping to the same place, and DST's parent, which must exist
 * unless {@code mkpath} (rsync's {@code --mkpath}): a typo in DST must not make a new tree.
 *
 * @param pairs       one checked pair of roots per source, in the order given
 * @param destination DST as given (bytes: any name, UTF-8 or not)
 */
public record Sources(List<Roots> pairs, byte[] destination) {

    public static Sources check(List<byte[]> sources, byte[] destination, boolean mkpath) {
        if (sources == null || sources.isEmpty()) throw new UsageException("no source given");
        if (destination == null || destination.length == 0)
            throw new UsageException("destination must not be empty (an empty DST is not the current directory)");
        byte[] dst = RootPaths.absolute(destination);
        // rsync's rule for one file: into DST when DST is a directory (or written as one), else DST becomes the file.
        boolean intoDst = sources.size() > 1 || endsWith(destination, "/") || endsWith(destination, "/.")
                || RootPaths.isDirectory(dst, destination);
        List<byte[]> targets = new ArrayList<>();
        List<Boolean> files = new ArrayList<>();
        for (byte[] source : sources) {
            if (source == null || source.length == 0)
                throw new UsageException("source must not be empty (an empty SRC is not the current directory)");
            boolean file = notADirectory(source);
            files.add(file);
            byte[] target = contentsOf(source) || (file && !intoDst) ? dst : RootPaths.child(dst, RootPaths.name(RootPaths.absolute(source)));
            for (int other = 0; other < targets.size(); other++)
                if (Arrays.equals(targets.get(other), target))
                    throw new UsageException("sources " + PathBytes.display(sources.get(other)) + " and " + PathBytes.display(source)
                            + " both map to " + PathBytes.display(target) + ": nothing was copied; give each source its own name in DST");
            targets.add(target);
        }
        if (sources.size() > 1)
            for (byte[] source : sources)
                if (contentsOf(source))
                    throw new UsageException("source " + PathBytes.display(source) + " means its contents, which map onto DST itself, over "
                            + "the other sources' places: with several sources, name each without the trailing slash");
        List<Roots> pairs = new ArrayList<>();
        for (int i = 0; i < sources.size(); i++)
            pairs.add(files.get(i) ? Roots.checkFile(sources.get(i), targets.get(i)) : Roots.check(sources.get(i), targets.get(i)));
        // Checked after the pairs, so that a source inside DST (say) is named as that, the worse mistake.
        byte[] parent = RootPaths.parent(dst);
        if (!mkpath && parent != null && !RootPaths.exists(dst, destination) && !RootPaths.isDirectory(parent, parent))
            throw new UsageException("the parent of destination " + PathBytes.display(destination) + " (" + PathBytes.display(parent)
                    + ") does not exist: nothing was created; give --mkpath to create the missing directories");
        return new Sources(List.copyOf(pairs), destination);
    }

    /**
     * rsync's rule: a trailing slash, or a last component "." (or ".."), names the directory's
     * contents; anything else names the directory itself.
     */
    static boolean contentsOf(byte[] source) {
        if (endsWith(source, "/") || endsWith(source, "/.") || endsWith(source, "/..")) return true;
        return Arrays.equals(source, new byte[]{'.'}) || Arrays.equals(source, new byte[]{'.', '.'});
    }

    private static boolean endsWith(byte[] path, String tail) {
        byte[] t = PathBytes.of(tail);
        return path.length >= t.length && Arrays.equals(path, path.length - t.length, path.length, t, 0, t.length);
    }

    /**
     * A source named without the trailing slash that is not a directory itself: a file, or a symlink,
     * which is copied as the link (rsync -a; {@code link/} follows it). A missing one is left to
     * {@link Roots#check}, which names it.
     */
    private static boolean notADirectory(byte[] source) {
        if (contentsOf(source)) return false;
        Stat stat = RootPaths.stat(source, false, source);
        return stat != null && stat.type() != FileType.DIRECTORY;
    }

    /** Creates each pair's destination that does not exist yet (DST first, when missing). */
    public void createDestinations() {
        for (Roots r : pairs) r.createDestination();
    }

    /** The sources as the report shows them: the resolved roots, one or several. */
    public String sourceDisplay() {
        return String.join(", ", pairs.stream().map(r -> PathBytes.display(r.named())).toList());
    }
}

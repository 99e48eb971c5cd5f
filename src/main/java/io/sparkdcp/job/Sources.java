package io.sparkdcp.job;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
 * @param destination DST as given
 */
public record Sources(List<Roots> pairs, String destination) {

    public static Sources check(List<String> sources, String destination, boolean mkpath) {
        if (sources == null || sources.isEmpty()) throw new UsageException("no source given");
        if (destination == null || destination.isEmpty())
            throw new UsageException("destination must not be empty (an empty DST is not the current directory)");
        Path dst = Path.of(destination).toAbsolutePath().normalize();
        // rsync's rule for one file: into DST when DST is a directory (or written as one), else DST becomes the file.
        boolean intoDst = sources.size() > 1 || destination.endsWith("/") || destination.endsWith("/.") || Files.isDirectory(dst);
        Map<Path, String> targets = new LinkedHashMap<>();
        List<Boolean> files = new ArrayList<>();
        for (String source : sources) {
            if (source == null || source.isEmpty())
                throw new UsageException("source must not be empty (an empty SRC is not the current directory)");
            boolean file = notADirectory(source);
            files.add(file);
            Path target = contentsOf(source) ? dst : file && !intoDst ? dst : dst.resolve(Path.of(source).normalize().getFileName());
            String other = targets.putIfAbsent(target, source);
            if (other != null)
                throw new UsageException("sources " + other + " and " + source + " both map to " + target
                        + ": nothing was copied; give each source its own name in DST");
        }
        if (sources.size() > 1)
            for (String source : sources)
                if (contentsOf(source))
                    throw new UsageException("source " + source + " means its contents, which map onto DST itself, over "
                            + "the other sources' places: with several sources, name each without the trailing slash");
        List<Roots> pairs = new ArrayList<>();
        List<Path> targetList = new ArrayList<>(targets.keySet());
        for (int i = 0; i < sources.size(); i++)
            pairs.add(files.get(i) ? Roots.checkFile(sources.get(i), targetList.get(i).toString())
                    : Roots.check(sources.get(i), targetList.get(i).toString()));
        // Checked after the pairs, so that a source inside DST (say) is named as that, the worse mistake.
        Path parent = dst.getParent();
        if (!mkpath && parent != null && !Files.exists(dst, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(parent))
            throw new UsageException("the parent of destination " + destination + " (" + parent + ") does not exist: "
                    + "nothing was created; give --mkpath to create the missing directories");
        return new Sources(List.copyOf(pairs), destination);
    }

    /**
     * rsync's rule: a trailing slash, or a last component "." (or ".."), names the directory's
     * contents; anything else names the directory itself.
     */
    static boolean contentsOf(String source) {
        if (source.endsWith("/") || source.endsWith("/.") || source.endsWith("/..")) return true;
        return source.equals(".") || source.equals("..");
    }

    /**
     * A source named without the trailing slash that is not a directory itself: a file, or a symlink,
     * which is copied as the link (rsync -a; {@code link/} follows it). A missing one is left to
     * {@link Roots#check}, which names it.
     */
    private static boolean notADirectory(String source) {
        if (contentsOf(source)) return false;
        Path p = Path.of(source);
        return Files.exists(p, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS);
    }

    /** Creates each pair's destination that does not exist yet (DST first, when missing). */
    public void createDestinations() {
        for (Roots r : pairs) r.createDestination();
    }

    /** The sources as the report shows them: the resolved roots, one or several. */
    public String sourceDisplay() {
        return String.join(", ", pairs.stream().map(r -> r.named().toString()).toList());
    }
}

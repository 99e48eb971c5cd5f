package io.sparkdcp.roots;

import io.sparkdcp.posix.Linux;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** This process's mounts, from /proc/self/mountinfo: where bind mounts come from, and mount points inside a tree. */
final class MountTable {
    private static final Pattern OCTAL = Pattern.compile("\\\\([0-7]{3})");

    /**
     * One mount.
     *
     * @param root       the directory of its file system that is mounted ("/" unless a bind of a subdirectory)
     * @param mountPoint where it is mounted, a real path
     */
    record Mount(long id, long dev, String root, String mountPoint) {}

    private final List<Mount> mounts;

    private MountTable(List<Mount> mounts) { this.mounts = mounts; }

    static MountTable read() {
        try {
            return parse(Files.readAllLines(Path.of("/proc/self/mountinfo")));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read /proc/self/mountinfo", e);
        }
    }

    /** The mounts that mountinfo lines list (id, parent id, major:minor, root, mount point, ...; octal escapes in paths). */
    static MountTable parse(List<String> mountinfo) {
        List<Mount> mounts = new ArrayList<>();
        for (String line : mountinfo) {
            String[] f = line.split(" ");
            String[] majorMinor = f[2].split(":");
            mounts.add(new Mount(Long.parseLong(f[0]), Linux.makedev(Long.parseLong(majorMinor[0]), Long.parseLong(majorMinor[1])),
                    unescape(f[3]), unescape(f[4])));
        }
        return new MountTable(mounts);
    }

    Mount byId(long id) {
        for (Mount m : mounts) if (m.id() == id) return m;
        return null;
    }

    /** The mounts of the file system on device {@code dev}. */
    List<Mount> ofDevice(long dev) {
        List<Mount> found = new ArrayList<>();
        for (Mount m : mounts) if (m.dev() == dev) found.add(m);
        return found;
    }

    /** Mounts of the same file system whose root lies strictly above {@code m}'s: where m's real parents can be seen. */
    List<Mount> showingParentsOf(Mount m) {
        List<Mount> found = new ArrayList<>();
        for (Mount o : mounts)
            if (o.dev() == m.dev() && !o.root().equals(m.root()) && below(m.root(), o.root())) found.add(o);
        return found;
    }

    /** Mount points strictly below the real path {@code dir}, as paths relative to it. */
    List<String> mountPointsBelow(String dir) {
        List<String> found = new ArrayList<>();
        String prefix = dir.endsWith("/") ? dir : dir + "/";
        for (Mount m : mounts)
            if (m.mountPoint().startsWith(prefix) && !found.contains(m.mountPoint().substring(prefix.length())))
                found.add(m.mountPoint().substring(prefix.length()));
        return found;
    }

    /** True when path is dir or below it. */
    static boolean below(String path, String dir) {
        return dir.equals("/") || path.equals(dir) || path.startsWith(dir + "/");
    }

    private static String unescape(String s) {
        Matcher m = OCTAL.matcher(s);
        StringBuilder out = new StringBuilder();
        while (m.find()) m.appendReplacement(out, Matcher.quoteReplacement(String.valueOf((char) Integer.parseInt(m.group(1), 8))));
        return m.appendTail(out).toString();
    }
}

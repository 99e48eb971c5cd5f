package io.sparkdcp.walk;

import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.PathBytes;

import java.io.Serializable;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which entries of SRC a walk lists: rsync's include/exclude rules for the common cases, and
 * optionally a list of the paths wanted ({@code --files-from}). Everything is bytes, so names that
 * are not UTF-8 filter like any other. An entry left out is not listed, and a directory left out is
 * not walked.
 *
 * <p>Patterns: {@code *} any bytes but {@code /}, {@code **} any bytes, {@code ?} one byte but
 * {@code /}, {@code [...]} a class ({@code [!...]} or {@code [^...]} negated, {@code a-z} ranges).
 * A leading {@code /} anchors the pattern at SRC; a trailing {@code /} matches directories only. A
 * pattern without {@code /} (besides a trailing one) and without {@code **} matches the entry's
 * name; otherwise the end of its path relative to SRC, from a name's start (anchored: the whole
 * path). The first rule that matches decides; an entry no rule matches is included.
 *
 * <p>With {@code --files-from}, an entry is listed only when it is one of the listed paths, a
 * directory above one, or inside a listed directory; the rules then apply as well.
 */
public final class Filter implements Serializable {
    public static final Filter NONE = new Filter(List.of(), null);

    private final List<Rule> rules;
    private final List<byte[]> listed;
    private transient Wanted wanted; // built on first use where the filter runs

    public Filter(List<Rule> rules, List<byte[]> listed) {
        this.rules = List.copyOf(rules);
        this.listed = listed == null ? null : List.copyOf(listed);
    }

    public List<Rule> rules() { return rules; }

    /** The paths of --files-from, or null. */
    public List<byte[]> listed() { return listed; }

    /** One include or exclude rule, compiled. */
    public record Rule(boolean include, byte[] glob, boolean anchored, boolean directoriesOnly, boolean wholePath)
            implements Serializable {

        /** Parses a pattern as rsync does for --include/--exclude; a bad one is an IllegalArgumentException naming it. */
        public static Rule of(boolean include, byte[] pattern) {
            byte[] p = pattern;
            boolean directoriesOnly = false;
            while (p.length > 1 && p[p.length - 1] == '/') {
                directoriesOnly = true;
                p = Arrays.copyOf(p, p.length - 1);
            }
            boolean anchored = p.length > 0 && p[0] == '/';
            if (anchored) p = Arrays.copyOfRange(p, 1, p.length);
            if (p.length == 0 || (p.length == 1 && p[0] == '/'))
                throw new IllegalArgumentException("pattern '" + PathBytes.display(pattern) + "' matches no name");
            checkClasses(p, pattern);
            boolean wholePath = anchored || indexOf(p, (byte) '/') >= 0 || contains(p, new byte[]{'*', '*'});
            return new Rule(include, p, anchored, directoriesOnly, wholePath);
        }

        boolean matches(byte[] path, boolean directory) {
            if (directoriesOnly && !directory) return false;
            if (anchored) return Glob.matches(glob, 0, path, 0);
            if (!wholePath) return Glob.matches(glob, 0, path, lastSlash(path) + 1);
            for (int start = 0; start <= path.length; start++) {
                if ((start == 0 || path[start - 1] == '/') && Glob.matches(glob, 0, path, start)) return true;
            }
            return false;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Rule r && include == r.include && anchored == r.anchored && directoriesOnly == r.directoriesOnly
                    && Arrays.equals(glob, r.glob);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(glob) * 31 + (include ? 1 : 0);
        }
    }

    /** True when nothing is filtered. */
    public boolean none() {
        return rules.isEmpty() && listed == null;
    }

    /** The same filter with one more rule, after the others. */
    public Filter with(Rule rule) {
        List<Rule> more = new ArrayList<>(rules);
        more.add(rule);
        return new Filter(more, listed);
    }

    /** The same rules, listing only these paths (and the directories above them). */
    public Filter listing(List<byte[]> paths) {
        return new Filter(rules, paths);
    }

    /** Whether the walk lists this entry. @param path relative to SRC, not empty (the root is always listed) */
    public boolean lists(byte[] path, boolean directory) {
        if (listed != null) {
            if (wanted == null) wanted = Wanted.of(listed); // a race builds it twice, equal
            if (!wanted(path, directory)) return false;
        }
        return rulesList(path, directory);
    }

    /**
     * The listed paths ({@code --files-from}) a walk with this filter did not find, as failures: rsync
     * reports them too, and a sync must not delete as if SRC lacked them. Paths the rules leave out
     * (or a directory above them) are not missing.
     */
    public List<Failure> missing(Listing listing) {
        if (listed == null) return List.of();
        Set<ByteBuffer> notFound = new HashSet<>();
        Set<ByteBuffer> parents = new HashSet<>();
        for (byte[] p : listed) {
            if (!rulesKeepWithParents(p)) continue;
            notFound.add(ByteBuffer.wrap(p));
            parents.add(ByteBuffer.wrap(PathBytes.parent(p)));
        }
        for (DirectoryBlock b : listing.blocks()) {
            notFound.remove(ByteBuffer.wrap(b.path()));
            if (parents.contains(ByteBuffer.wrap(b.path()))) for (Entry e : b.files()) notFound.remove(ByteBuffer.wrap(e.path()));
        }
        List<Failure> out = new ArrayList<>();
        for (ByteBuffer p : notFound) {
            byte[] path = new byte[p.remaining()];
            p.duplicate().get(path);
            out.add(new Failure(PathBytes.display(path), "files-from", "ENOENT", "listed in --files-from, not found in SRC"));
        }
        out.sort(Comparator.comparing(Failure::path));
        return out;
    }

    /** Whether the rules keep this path, as a file and as a directory, and every directory above it. */
    private boolean rulesKeepWithParents(byte[] path) {
        for (int i = 0; i < path.length; i++) {
            if (path[i] == '/' && !rulesList(Arrays.copyOf(path, i), true)) return false;
        }
        return rulesList(path, false) && rulesList(path, true);
    }

    private boolean rulesList(byte[] path, boolean directory) {
        for (Rule r : rules) if (r.matches(path, directory)) return r.include;
        return true;
    }

    private boolean wanted(byte[] path, boolean directory) {
        Wanted w = wanted;
        if (w.paths.contains(ByteBuffer.wrap(path))) return true;
        if (directory && w.above.contains(ByteBuffer.wrap(path))) return true;
        for (int i = 0; i < path.length; i++) {
            if (path[i] == '/' && w.paths.contains(ByteBuffer.wrap(path, 0, i).slice())) return true;
        }
        return false;
    }

    /** The listed paths as sets, built where the filter is used (not shipped). */
    private record Wanted(Set<ByteBuffer> paths, Set<ByteBuffer> above) {
        static Wanted of(List<byte[]> listed) {
            Set<ByteBuffer> paths = new HashSet<>();
            Set<ByteBuffer> above = new HashSet<>();
            for (byte[] p : listed) {
                paths.add(ByteBuffer.wrap(p));
                for (int i = 0; i < p.length; i++) if (p[i] == '/') above.add(ByteBuffer.wrap(Arrays.copyOf(p, i)));
            }
            return new Wanted(paths, above);
        }
    }

    /**
     * One path of a {@code --files-from} list, made relative to SRC: leading {@code /} and {@code ./},
     * trailing {@code /} and empty names dropped. Null for a line naming SRC itself; a {@code ..} name
     * (which would leave SRC) is refused.
     */
    public static byte[] listedPath(byte[] line) {
        List<byte[]> names = new ArrayList<>();
        int start = 0;
        for (int i = 0; i <= line.length; i++) {
            if (i < line.length && line[i] != '/') continue;
            byte[] name = Arrays.copyOfRange(line, start, i);
            start = i + 1;
            if (name.length == 0 || Arrays.equals(name, new byte[]{'.'})) continue;
            if (Arrays.equals(name, new byte[]{'.', '.'}))
                throw new IllegalArgumentException("listed path '" + PathBytes.display(line) + "' leaves SRC (..)");
            names.add(name);
        }
        if (names.isEmpty()) return null;
        byte[] path = names.get(0);
        for (int i = 1; i < names.size(); i++) path = PathBytes.join(path, names.get(i));
        return path;
    }

    private static void checkClasses(byte[] p, byte[] pattern) {
        for (int i = 0; i < p.length; i++) {
            if (p[i] == '\\') {
                i++;
            } else if (p[i] == '[' && Glob.classEnd(p, i) < 0) {
                throw new IllegalArgumentException("pattern '" + PathBytes.display(pattern) + "' has a '[' without its ']'");
            }
        }
        if (p[p.length - 1] == '\\' && (p.length < 2 || p[p.length - 2] != '\\'))
            throw new IllegalArgumentException("pattern '" + PathBytes.display(pattern) + "' ends with a lone '\\'");
    }

    private static int lastSlash(byte[] path) {
        for (int i = path.length - 1; i >= 0; i--) if (path[i] == '/') return i;
        return -1;
    }

    private static int indexOf(byte[] a, byte b) {
        for (int i = 0; i < a.length; i++) if (a[i] == b) return i;
        return -1;
    }

    private static boolean contains(byte[] a, byte[] part) {
        outer:
        for (int i = 0; i + part.length <= a.length; i++) {
            for (int j = 0; j < part.length; j++) if (a[i + j] != part[j]) continue outer;
            return true;
        }
        return false;
    }

    /** Shell-style matching of a byte pattern against the rest of a path. */
    static final class Glob {
        private Glob() {}

        static boolean matches(byte[] p, int pi, byte[] s, int si) {
            while (pi < p.length) {
                byte c = p[pi];
                if (c == '*') {
                    boolean any = pi + 1 < p.length && p[pi + 1] == '*';
                    int next = pi + (any ? 2 : 1);
                    while (next < p.length && p[next] == '*') next++; // *** is **
                    for (int k = si; k <= s.length; k++) {
                        if (matches(p, next, s, k)) return true;
                        if (k < s.length && s[k] == '/' && !any) return false;
                    }
                    return false;
                }
                if (si >= s.length) return false;
                if (c == '?') {
                    if (s[si] == '/') return false;
                    pi++;
                } else if (c == '[') {
                    int end = classEnd(p, pi);
                    if (s[si] == '/' || !inClass(p, pi + 1, end, s[si])) return false;
                    pi = end + 1;
                } else {
                    if (c == '\\') c = p[++pi];
                    if (s[si] != c) return false;
                    pi++;
                }
                si++;
            }
            return si == s.length;
        }

        /** Index of the ']' closing the class opened at {@code open}, or -1. */
        static int classEnd(byte[] p, int open) {
            int i = open + 1;
            if (i < p.length && (p[i] == '!' || p[i] == '^')) i++;
            if (i < p.length && p[i] == ']') i++; // a leading ] is a member
            for (; i < p.length; i++) if (p[i] == ']') return i;
            return -1;
        }

        private static boolean inClass(byte[] p, int from, int end, byte b) {
            boolean negated = p[from] == '!' || p[from] == '^';
            int i = negated ? from + 1 : from;
            boolean found = false;
            int v = b & 0xff;
            for (; i < end; i++) {
                int lo = p[i] & 0xff;
                if (i + 2 < end && p[i + 1] == '-') {
                    int hi = p[i + 2] & 0xff;
                    if (v >= lo && v <= hi) found = true;
                    i += 2;
                } else if (v == lo) {
                    found = true;
                }
            }
            return found != negated;
        }
    }
}

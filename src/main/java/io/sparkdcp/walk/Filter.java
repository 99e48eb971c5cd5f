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
 * Which entries of SRC a walk lists: rsync's include/exclude rules, matched as rsync matches them
 * ({@link Rule}, {@link Wildmatch}; {@link RuleText} reads the rule syntax), and optionally a list of
 * the paths wanted ({@code --files-from}). Everything is bytes, so names that are not UTF-8 filter
 * like any other. An entry left out is not listed, and a directory left out is not walked. The first
 * rule that matches decides; an entry no rule matches is included.
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

    /**
     * One include or exclude rule, as rsync's {@code add_rule} compiles it and {@code rule_matches}
     * applies it (exclude.c): the pattern keeps its leading {@code /} and loses one trailing {@code /}.
     */
    public static final class Rule implements Serializable {
        private final boolean include;
        private final byte[] pattern;
        private final boolean directoriesOnly;
        private final int slashes;
        private final boolean wild;           // holds * ? or [: wildmatch, else a plain compare
        private final boolean crossesSlashes; // holds **
        private final boolean startsWithTwoStars;
        private final boolean endsWithThreeStars;
        private final boolean anchored;
        private final byte[] body; // the pattern without its anchoring '/'

        private Rule(boolean include, byte[] pattern, boolean directoriesOnly) {
            this.include = include;
            this.pattern = pattern;
            this.directoriesOnly = directoriesOnly;
            int n = 0;
            for (byte b : pattern) if (b == '/') n++;
            this.slashes = n;
            this.wild = indexOf(pattern, (byte) '*') >= 0 || indexOf(pattern, (byte) '?') >= 0 || indexOf(pattern, (byte) '[') >= 0;
            int twoStars = wild ? indexOf(pattern, new byte[]{'*', '*'}) : -1;
            this.crossesSlashes = twoStars >= 0;
            this.startsWithTwoStars = twoStars == 0;
            int len = pattern.length;
            this.endsWithThreeStars = crossesSlashes && len >= 3 && pattern[len - 1] == '*' && pattern[len - 2] == '*' && pattern[len - 3] == '*';
            this.anchored = len > 0 && pattern[0] == '/';
            this.body = anchored ? Arrays.copyOfRange(pattern, 1, len) : pattern;
        }

        /**
         * Compiles one pattern as rsync does for an include or exclude rule (no prefix: see {@link RuleText}).
         * A pattern that rsync would never match, or that wildmatch would read past, is an
         * IllegalArgumentException naming it.
         */
        public static Rule of(boolean include, byte[] pattern) {
            byte[] p = pattern;
            boolean directoriesOnly = false;
            if (p.length > 1 && p[p.length - 1] == '/') {
                directoriesOnly = true;
                p = Arrays.copyOf(p, p.length - 1);
            }
            Rule rule = new Rule(include, p, directoriesOnly);
            String why = rule.matchesNothing();
            // An empty pattern shows as '', not as display's "." for an empty path.
            if (why != null) throw new IllegalArgumentException("pattern '" + (pattern.length == 0 ? "" : PathBytes.display(pattern)) + "' " + why);
            return rule;
        }

        public boolean include() { return include; }

        /** The pattern as compiled: its leading {@code /} kept, one trailing {@code /} taken off ({@link #directoriesOnly}). */
        public byte[] pattern() { return pattern.clone(); }

        /** Whether the pattern ended in {@code /}: it matches directories only. */
        public boolean directoriesOnly() { return directoriesOnly; }

        /** Why no name can match this rule, or null. */
        private String matchesNothing() {
            if (pattern.length == 0) return "is empty";
            if (indexOf(pattern, (byte) 0) >= 0) return "holds a NUL byte";
            if (pattern.length == 1 && pattern[0] == '/') return "matches no name (a lone /)";
            if (!wild) return null; // a plain compare: every byte is itself, \ too
            for (int i = 0; i < pattern.length; i++) {
                if (pattern[i] == '\\') {
                    if (++i == pattern.length) return "ends with a lone '\\'";
                } else if (pattern[i] == '[') {
                    Wildmatch.ClassMatch c = Wildmatch.matchClass(pattern, i, 'x');
                    if (c == null) return "has a '[' class without its ']' or with an unknown [:name:]";
                    i = c.end();
                }
            }
            return null;
        }

        /** rsync's rule_matches for a path relative to the transfer root (SRC), never empty. */
        boolean matches(byte[] path, boolean directory) {
            if (directoriesOnly && !directory) return false;
            int nameStart = 0;
            boolean slashBefore = false;
            if (slashes == 0 && !crossesSlashes) nameStart = lastSlash(path) + 1; // the name only
            else if (startsWithTwoStars) slashBefore = true; // lets "**/" match at the start
            boolean slashAfter = directory && endsWithThreeStars; // lets "dir/***" match dir itself
            byte[] p = body;
            int where;
            if (!anchored && slashes > 0 && !crossesSlashes) where = slashes + 1; // the last slashes+1 names
            else if (!anchored && !startsWithTwoStars && crossesSlashes) where = -1; // after any slash
            else where = 0;
            if (wild) {
                byte[] text = path;
                if (nameStart > 0 || slashBefore || slashAfter) {
                    text = new byte[(slashBefore ? 1 : 0) + path.length - nameStart + (slashAfter ? 1 : 0)];
                    if (slashBefore) text[0] = '/';
                    System.arraycopy(path, nameStart, text, slashBefore ? 1 : 0, path.length - nameStart);
                    if (slashAfter) text[text.length - 1] = '/';
                }
                return Wildmatch.matches(p, text, where);
            }
            int l1 = path.length - nameStart;
            if (anchored) return Arrays.equals(path, nameStart, path.length, p, 0, p.length);
            int l2 = p.length;
            return l2 <= l1 && Arrays.equals(path, path.length - l2, path.length, p, 0, l2)
                    && (l1 == l2 || path[path.length - l2 - 1] == '/');
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Rule r && include == r.include && directoriesOnly == r.directoriesOnly && Arrays.equals(pattern, r.pattern);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(pattern) * 31 + (include ? 1 : 0);
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

    /** The same filter without its rules (rsync's {@code !} rule clears the list); --files-from stays. */
    public Filter cleared() {
        return new Filter(List.of(), listed);
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

    private static int lastSlash(byte[] path) {
        for (int i = path.length - 1; i >= 0; i--) if (path[i] == '/') return i;
        return -1;
    }

    private static int indexOf(byte[] a, byte b) {
        for (int i = 0; i < a.length; i++) if (a[i] == b) return i;
        return -1;
    }

    private static int indexOf(byte[] a, byte[] part) {
        outer:
        for (int i = 0; i + part.length <= a.length; i++) {
            for (int j = 0; j < part.length; j++) if (a[i + j] != part[j]) continue outer;
            return i;
        }
        return -1;
    }
}

package io.sparkdcp.job;

import io.sparkdcp.api.CopyRequest;
import io.sparkdcp.job.listing.ListingOptions;
import io.sparkdcp.job.listing.WalkMode;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.LocalCopy;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.walk.Filter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * spark-dcp's filters against Debian's rsync: random small trees (files, directories, symlinks to
 * directories) whose names hold the bytes patterns care about, random rule sets drawn from rsync's include/exclude grammar (as arguments and as rule
 * files), each run through copy, sync --delete and sync --delete-excluded into a DST prefilled with
 * entries of its own, and through {@code rsync -a [--delete [--delete-excluded]]} with the same rules
 * into a DST of its own. Each rule set must give rsync's tree exactly or be refused while parsed (and
 * only a form the generator marks as one spark-dcp refuses may be). Seeded: {@code -Dfilters.seed=N}
 * {@code -Dfilters.cases=N} repeat a failure, whose message names its seed; a seed that failed once is run first, for good.
 */
class FilterRsyncDifferentialTest {
    private static final long SEED = Long.getLong("filters.seed", System.nanoTime());
    private static final int CASES = Integer.getInteger("filters.cases", 100);
    /** Seeds that failed once, run first for good: 19600635159863 deleted a directory only excluded entries filled (ENOTEMPTY). */
    private static final List<Long> FAILED_ONCE = List.of(19600635159863L);

    /** Names with the bytes patterns care about: wildcards, brackets, backslash, spaces, dots, '!' and '+'. */
    private static final String[] NAMES = {"a", "b", "ab", "a.c", "b.o", ".h", "x y", "*", "?", "[a]", "a*", "k[1]",
            "keep", "d-1", "a\\b", "!x", "+ p", "B"};

    private static LoopMount mount;

    @BeforeAll
    static void mount() {
        LoopMount.requireRootAndXfs();
        assertTrue(Commands.available("rsync"), "rsync is needed (.ci/run installs it)");
        mount = LoopMount.create("filters-rsync", LoopMount.MIN_SIZE_MIB);
    }

    @AfterAll
    static void unmount() {
        if (mount != null) mount.close();
    }

    @Test
    void theIncludeADirectoryAndAllItHoldsIdiomCopiesIt() throws IOException {
        Path root = Files.createDirectory(mount.dir().resolve("idiom"));
        Tree tree = new Tree(List.of(new Node("keep", true), new Node("keep/a", false), new Node("keep/sub", true),
                new Node("keep/sub/b", false), new Node("other", true), new Node("other/c", false), new Node("top", false)));
        List<RuleArg> rules = List.of(new RuleArg("--include", "keep/***", false), new RuleArg("--exclude", "*", false));
        Set<String> expected = new TreeSet<>(List.of("keep/", "keep/a", "keep/sub/", "keep/sub/b"));
        Outcome copy = runBoth(root, tree, new Tree(List.of()), new Tree(List.of()), rules, Mode.COPY, WalkMode.DRIVER);
        assertEquals(expected, copy.rsync(), "rsync's own tree");
        assertEquals(expected, copy.sparkDcp(), "spark-dcp's tree");
    }

    @Test
    void randomRuleSetsGiveRsyncsTreeOrAreRefused() throws IOException {
        int refused = 0;
        List<Long> seeds = new ArrayList<>(System.getProperty("filters.seed") == null ? FAILED_ONCE : List.of());
        for (int i = 0; i < CASES; i++) seeds.add(SEED + i);
        for (int i = 0; i < seeds.size(); i++) {
            long seed = seeds.get(i);
            Random random = new Random(seed);
            Tree src = Tree.random(random);
            Tree dstPart = src.part(random);
            Tree extra = Tree.extra(random, src);
            List<RuleArg> rules = RuleArg.randomSet(random);
            String context = "seed " + seed + " (-Dfilters.seed=" + seed + " -Dfilters.cases=1), rules " + rules + ", tree " + src.nodes()
                    + ", DST before a sync " + dstPart.nodes() + " and its own " + extra.nodes();
            Path root = Files.createDirectory(mount.dir().resolve("case-" + i));
            try {
                Filter filter = parse(root, rules);
                if (filter == null) {
                    refused++;
                    if (rules.stream().noneMatch(RuleArg::mayBeRefused)) fail("refused a form rsync's grammar takes");
                    continue;
                }
                WalkMode walk = random.nextBoolean() ? WalkMode.DRIVER : WalkMode.DISTRIBUTED;
                for (Mode mode : Mode.values()) {
                    Outcome o = runBoth(root.resolve(mode.name()), src, dstPart, extra, rules, mode, walk);
                    assertEquals(o.rsync(), o.sparkDcp(), mode + " " + walk + ", " + context);
                }
            } catch (IOException | RuntimeException | AssertionError e) {
                throw new AssertionError(context + ": " + e.getMessage(), e);
            } finally {
                delete(root);
            }
        }
        assertTrue(refused < CASES / 4, refused + " of " + CASES + " rule sets refused: the grammar is barely tested (seed " + SEED + ")");
    }

    private enum Mode {
        COPY(), SYNC_DELETE("--delete"), SYNC_DELETE_EXCLUDED("--delete", "--delete-excluded");

        final List<String> rsyncOptions;

        Mode(String... rsyncOptions) { this.rsyncOptions = List.of(rsyncOptions); }
    }

    /** Each side's DST, as relative paths (directories end in /). */
    private record Outcome(Set<String> rsync, Set<String> sparkDcp) {}

    private static Outcome runBoth(Path root, Tree src, Tree dstPart, Tree extra, List<RuleArg> rules, Mode mode, WalkMode walk)
            throws IOException {
        Path srcDir = Files.createDirectories(root.resolve("src"));
        src.create(srcDir);
        Path ours = Files.createDirectories(root.resolve("ours"));
        Path theirs = Files.createDirectories(root.resolve("rsync"));
        if (mode != Mode.COPY) {
            // DST holds part of SRC and entries of its own, some of which the rules match.
            for (Path dst : List.of(ours, theirs)) {
                dstPart.create(dst);
                extra.create(dst);
            }
        }
        List<String> rsync = new ArrayList<>(List.of("rsync", "-a"));
        rsync.addAll(mode.rsyncOptions);
        for (RuleArg r : rules) rsync.add(r.option() + "=" + r.argument(root));
        rsync.add(srcDir + "/");
        rsync.add(theirs + "/");
        Commands.Result r = Commands.tryRun(rsync.toArray(String[]::new));
        assertEquals(0, r.exitCode(), "rsync: " + r.stderr());

        Filter filter = parse(root, rules);
        ListingOptions listing = new ListingOptions(walk, null, null, filter, mode == Mode.SYNC_DELETE_EXCLUDED);
        CopyReport report = mode == Mode.COPY
                ? LocalCopy.defaults().withListing(listing).run(srcDir, ours)
                : LocalCopy.syncDefaults().withListing(listing).sync(srcDir, ours, true);
        // A directory that holds only entries the rules protect is kept by both, with a notice (rsync: with -v).
        for (Failure f : report.counts().failures()) fail("spark-dcp failed " + f + ", rsync did not");
        return new Outcome(paths(theirs), paths(ours));
    }

    /** The rules through the request builder, as the command line gives them; null when refused. */
    private static Filter parse(Path root, List<RuleArg> rules) {
        CopyRequest.Builder b = CopyRequest.builder();
        try {
            for (RuleArg r : rules) {
                byte[] text = r.text().getBytes(StandardCharsets.UTF_8);
                switch (r.option()) {
                    case "--exclude" -> b.exclude(text);
                    case "--include" -> b.include(text);
                    case "--exclude-from" -> b.excludeFrom(r.argument(root));
                    default -> b.includeFrom(r.argument(root));
                }
            }
        } catch (IllegalArgumentException refused) {
            return null;
        }
        return b.build().listing().filter();
    }

    /** One rule option: an argument, or a rule file holding {@code text}'s lines. */
    private record RuleArg(String option, String text, boolean mayBeRefused) {
        /** The option's value: the pattern itself, or the rule file, written under root. */
        String argument(Path root) {
            if (!option.endsWith("-from")) return text;
            Path file = root.resolve("rules-" + Integer.toHexString(text.hashCode()) + option);
            try {
                if (!Files.exists(file)) Files.writeString(file, text);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return file.toString();
        }

        static List<RuleArg> randomSet(Random r) {
            List<RuleArg> rules = new ArrayList<>();
            int n = 1 + r.nextInt(4);
            for (int i = 0; i < n; i++) {
                if (r.nextInt(5) == 0) {
                    rules.add(file(r));
                } else {
                    Text t = Text.random(r);
                    rules.add(new RuleArg(r.nextBoolean() ? "--include" : "--exclude", t.text(), t.mayBeRefused()));
                }
            }
            return rules;
        }

        /** A rule file: rules, comments, blank lines, CRLF or LF. */
        private static RuleArg file(Random r) {
            StringBuilder s = new StringBuilder();
            boolean mayBeRefused = false;
            String eol = r.nextInt(4) == 0 ? "\r\n" : "\n";
            for (int i = 1 + r.nextInt(4); i > 0; i--) {
                switch (r.nextInt(8)) {
                    case 0 -> s.append(r.nextBoolean() ? "# a comment" : "; a comment");
                    case 1 -> s.append("");
                    default -> {
                        Text t = Text.random(r);
                        if (t.text().isEmpty()) continue; // a blank line: skipped, tested above
                        s.append(t.text());
                        mayBeRefused |= t.mayBeRefused();
                    }
                }
                s.append(eol);
            }
            return new RuleArg(r.nextBoolean() ? "--exclude-from" : "--include-from", s.toString(), mayBeRefused);
        }

        @Override
        public String toString() {
            return option + "='" + text.replace("\n", "\\n").replace("\r", "\\r") + "'";
        }
    }

    /** One rule's text from rsync's include/exclude grammar, and whether spark-dcp may refuse it. */
    private record Text(String text, boolean mayBeRefused) {
        private static final String[] WILD = {"*", "**", "***", "?", "a*", "*.c", "*.o", "[ab]*", "[!a]*", "[^.]*", "[a-c]*",
                "[]a]", "[[:alpha:]]*", "[[:digit:]]]", "[[:punct:]]", "\\*", "\\?", "\\[a]", "k\\[1]", "?*", "*b", "a?", "**.o",
                "a**", "[*?]", "[\\]]*", "[a-]", "[[]*"};
        private static final String[] REFUSED = {"-! %s", "+s %s", "-/ %s", ". rules", ": .filter", "merge rules", "hide %s",
                "P %s", "%s[ab", "[[:word:]]%s", "*%s\\", ""};

        static Text random(Random r) {
            if (r.nextInt(12) == 0) return new Text("!", false);
            if (r.nextInt(25) == 0) {
                String form = REFUSED[r.nextInt(REFUSED.length)];
                return new Text(form.replace("%s", pattern(r)), true);
            }
            String prefix = switch (r.nextInt(6)) {
                case 0 -> "+ ";
                case 1 -> "- ";
                default -> "";
            };
            return new Text(prefix + pattern(r), false);
        }

        /** [/] segment(/segment)* [/ | /***], segments names, wildcards or both. */
        static String pattern(Random r) {
            StringBuilder p = new StringBuilder();
            if (r.nextInt(4) == 0) p.append('/');
            else if (r.nextInt(8) == 0) p.append("**/");
            int segments = 1 + (r.nextInt(3) == 0 ? 1 + r.nextInt(2) : 0);
            for (int i = 0; i < segments; i++) {
                if (i > 0) p.append('/');
                p.append(switch (r.nextInt(3)) {
                    case 0 -> NAMES[r.nextInt(NAMES.length)];
                    case 1 -> WILD[r.nextInt(WILD.length)];
                    default -> "ab.x*?k!+".charAt(r.nextInt(9)) + WILD[r.nextInt(WILD.length)];
                });
            }
            switch (r.nextInt(6)) {
                case 0 -> p.append('/');
                case 1 -> p.append("/***");
                default -> { }
            }
            return p.toString();
        }
    }

    /** A file, a directory, or a symlink to a directory (which is no directory to rsync's rules). */
    private record Node(String path, boolean directory, boolean link) {
        Node(String path, boolean directory) { this(path, directory, false); }

        @Override
        public String toString() { return directory ? path + "/" : link ? path + "@" : path; }
    }

    /** Entries in creation order (a directory before what it holds). */
    private record Tree(List<Node> nodes) {
        static Tree random(Random r) {
            List<Node> nodes = new ArrayList<>();
            fill(r, "", 0, nodes, new TreeSet<>());
            return new Tree(nodes);
        }

        /** DST's own entries: new names beside SRC's, inside SRC's directories and in directories of their own. */
        static Tree extra(Random r, Tree src) {
            Set<String> taken = new TreeSet<>();
            List<String> dirs = new ArrayList<>(List.of(""));
            for (Node n : src.nodes) {
                taken.add(n.path());
                if (n.directory()) dirs.add(n.path());
            }
            List<Node> nodes = new ArrayList<>();
            for (int i = 1 + r.nextInt(4); i > 0; i--) {
                String dir = dirs.get(r.nextInt(dirs.size()));
                fill(r, dir, 1, nodes, taken);
            }
            return new Tree(nodes);
        }

        private static void fill(Random r, String dir, int depth, List<Node> nodes, Set<String> taken) {
            int children = depth == 0 ? 3 + r.nextInt(4) : r.nextInt(4);
            Set<String> used = new TreeSet<>();
            for (int i = 0; i < children; i++) {
                String name = NAMES[r.nextInt(NAMES.length)];
                String path = dir.isEmpty() ? name : dir + "/" + name;
                if (!used.add(name) || !taken.add(path)) continue;
                boolean directory = depth < 2 && r.nextInt(3) == 0;
                boolean link = !directory && r.nextInt(8) == 0;
                nodes.add(new Node(path, directory, link));
                if (directory) fill(r, path, depth + 1, nodes, taken);
            }
        }

        /** Part of this tree, as DST may hold it from an earlier run: each entry kept or not, never without its parent. */
        Tree part(Random r) {
            Set<String> kept = new TreeSet<>();
            List<Node> out = new ArrayList<>();
            for (Node n : nodes) {
                int slash = n.path().lastIndexOf('/');
                boolean parentKept = slash < 0 || kept.contains(n.path().substring(0, slash));
                if (parentKept && r.nextInt(10) < 7) {
                    kept.add(n.path());
                    out.add(n);
                }
            }
            return new Tree(out);
        }

        void create(Path root) throws IOException {
            for (Node n : nodes) {
                Path p = root.resolve(n.path());
                if (n.directory()) {
                    Files.createDirectories(p);
                } else if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
                    Files.createDirectories(p.getParent());
                    if (n.link()) Files.createSymbolicLink(p, Path.of("."));
                    else Files.writeString(p, n.path());
                }
            }
        }
    }

    private static Set<String> paths(Path root) throws IOException {
        Set<String> out = new TreeSet<>();
        try (Stream<Path> s = Files.walk(root)) {
            s.filter(p -> !p.equals(root)).forEach(p -> out.add(root.relativize(p)
                    + (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS) ? "/" : Files.isSymbolicLink(p) ? "@" : "")));
        }
        return out;
    }

    private static void delete(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
        }
    }
}

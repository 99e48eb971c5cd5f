package io.sparkdcp.copy.keep;

import java.io.IOException;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Which extended attributes travel, by the names mpifileutils users know: {@code none}, {@code all},
 * {@code non-lustre} (default: skip what Lustre manages itself) and {@code libattr} (skip the
 * patterns marked {@code skip} in /etc/xattr.conf, as cp and rsync do through libattr).
 */
public final class XattrPolicy implements Serializable {
    public enum Kind { NONE, ALL, NON_LUSTRE, LIBATTR }

    /**
     * Attributes the file system manages itself: Lustre's (setting them is ignored, refused or
     * harmful; trusted.projid travels by ioctl) and XFS's own copies of ACLs (they travel as
     * system.posix_acl_*, and would be junk on any other file system).
     */
    private static final Set<String> FILE_SYSTEM_MANAGED = Set.of("trusted.SGI_ACL_FILE", "trusted.SGI_ACL_DEFAULT","trusted.lov", "trusted.lma", "trusted.lmv",
            "trusted.dmv", "trusted.link", "trusted.fid", "trusted.version", "trusted.som", "trusted.hsm",
            "trusted.lfsck_bitmap", "trusted.lfsck_ns", "trusted.dummy", "trusted.dataver", "trusted.projid",
            "security.c");

    private final Kind kind;
    private final List<String> skipPatterns;

    private XattrPolicy(Kind kind, List<String> skipPatterns) {
        this.kind = kind;
        this.skipPatterns = skipPatterns;
    }

    public static XattrPolicy none() { return new XattrPolicy(Kind.NONE, List.of()); }

    public static XattrPolicy all() { return new XattrPolicy(Kind.ALL, List.of()); }

    public static XattrPolicy nonLustre() { return new XattrPolicy(Kind.NON_LUSTRE, List.of()); }

    /** The libattr policy with the skip patterns of the given xattr.conf (missing file: nothing skipped). */
    public static XattrPolicy libattr(Path xattrConf) {
        List<String> patterns = new ArrayList<>();
        if (Files.exists(xattrConf)) {
            try {
                for (String line : Files.readAllLines(xattrConf, StandardCharsets.UTF_8)) {
                    String l = line.strip();
                    if (l.isEmpty() || l.startsWith("#")) continue;
                    String[] parts = l.split("\\s+");
                    if (parts.length >= 2 && parts[1].equals("skip")) patterns.add(parts[0]);
                }
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot read " + xattrConf + ": " + e.getMessage(), e);
            }
        }
        return new XattrPolicy(Kind.LIBATTR, List.copyOf(patterns));
    }

    /** Parses the CLI's words: none, all, non-lustre, libattr. */
    public static XattrPolicy parse(String word) {
        return switch (word) {
            case "none" -> none();
            case "all" -> all();
            case "non-lustre" -> nonLustre();
            case "libattr" -> libattr(Path.of("/etc/xattr.conf"));
            default -> throw new IllegalArgumentException(
                    "unknown xattr policy '" + word + "' (expected none, all, non-lustre or libattr)");
        };
    }

    public Kind kind() { return kind; }

    public boolean copiesNothing() { return kind == Kind.NONE; }

    /** The libattr policy's skip patterns, in xattr.conf's order (empty for the others). */
    public List<String> skipPatterns() { return skipPatterns; }

    public boolean keeps(byte[] name) {
        return switch (kind) {
            case NONE -> false;
            case ALL -> true;
            case NON_LUSTRE -> !isLustreManaged(name);
            case LIBATTR -> !matchesSkip(new String(name, StandardCharsets.UTF_8));
        };
    }

    private static boolean isLustreManaged(byte[] name) {
        String n = new String(name, StandardCharsets.UTF_8);
        return n.startsWith("lustre.") || FILE_SYSTEM_MANAGED.contains(n);
    }

    private boolean matchesSkip(String name) {
        for (String p : skipPatterns) if (globMatches(p, name)) return true;
        return false;
    }

    /** fnmatch without brackets: '*' any run, '?' one character — what xattr.conf uses. */
    static boolean globMatches(String pattern, String s) {
        int p = 0, i = 0, star = -1, mark = 0;
        while (i < s.length()) {
            if (p < pattern.length() && (pattern.charAt(p) == '?' || pattern.charAt(p) == s.charAt(i))) {
                p++;
                i++;
            } else if (p < pattern.length() && pattern.charAt(p) == '*') {
                star = p++;
                mark = i;
            } else if (star >= 0) {
                p = star + 1;
                i = ++mark;
            } else {
                return false;
            }
        }
        while (p < pattern.length() && pattern.charAt(p) == '*') p++;
        return p == pattern.length();
    }

    public String word() {
        return switch (kind) {
            case NONE -> "none";
            case ALL -> "all";
            case NON_LUSTRE -> "non-lustre";
            case LIBATTR -> "libattr";
        };
    }
}

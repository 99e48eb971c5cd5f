package io.sparkdcp.itemlog;

import io.sparkdcp.copy.ItemLog.Action;
import io.sparkdcp.copy.compare.Difference;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.PathBytes;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * One line of the itemized log ({@code --log DIR}): fields separated by tabs,
 * {@code ACTION TYPE PATH [DETAIL...]}. Every field is escaped as paths are shown everywhere
 * ({@link PathBytes#display}: UTF-8 as it is, {@code \\} for a backslash, {@code \n} for a newline,
 * {@code \xNN} for other control bytes, tabs included, and for bytes that are not UTF-8), so any name is one
 * line and one field, and {@link #parse} gives its bytes back.
 *
 * @param action  copied, linked, fixed, skipped, kept_newer, deleted, failed; {@code differs} for compare
 * @param what    the entry's type ({@code file}, {@code directory}, {@code symlink}, {@code fifo},
 *                {@code char_device}, {@code block_device}, {@code socket}; {@code -} when unknown); for
 *                compare the kind of difference
 * @param path    relative to DST's root (empty for the root itself, shown as {@code .})
 * @param details for {@code failed}: the call, the errno name ({@code -} for none) and the message; for
 *                {@code fixed}: the kinds of metadata set ({@link #words}); for {@code differs}: what SRC has and
 *                what DST has
 */
public record ItemLine(String action, String what, byte[] path, List<String> details) {
    public static final String DIFFERS = "differs";
    public static final String UNKNOWN = "-";

    public ItemLine {
        details = List.copyOf(details);
    }

    /** An entry the engine acted on, its path under {@code prefix}. */
    public static ItemLine of(Action action, FileType type, byte[] prefix, byte[] path, Failure failure) {
        return new ItemLine(action.word(), type.name().toLowerCase(Locale.ROOT), under(prefix, path), failure == null ? List.of()
                : failureDetails(failure));
    }

    /** A fixed entry, its path under {@code prefix}, with the kinds of metadata set on it: {@code mode,mtime,xattr}. */
    public static ItemLine ofFixed(FileType type, byte[] prefix, byte[] path, Set<Difference.Kind> kinds) {
        return new ItemLine(Action.FIXED.word(), type.name().toLowerCase(Locale.ROOT), under(prefix, path),
                kinds.isEmpty() ? List.of() : List.of(words(kinds)));
    }

    /** Kinds as a {@code fixed} line names them, in compare's order, joined by commas. */
    public static String words(Set<Difference.Kind> kinds) {
        StringBuilder out = new StringBuilder();
        for (Difference.Kind k : new TreeSet<>(kinds)) out.append(out.isEmpty() ? "" : ",").append(k.word());
        return out.toString();
    }

    /** A failure of the job (its path as {@link Failure} shows it), under {@code prefix}. */
    public static ItemLine ofJobFailure(byte[] prefix, Failure f) {
        return new ItemLine(Action.FAILED.word(), UNKNOWN, under(prefix, unescape(f.path())), failureDetails(f));
    }

    public static ItemLine ofDifference(Difference d) {
        return new ItemLine(DIFFERS, d.kind().word(), d.path(), List.of(d.source(), d.destination()));
    }

    private static List<String> failureDetails(Failure f) {
        return List.of(f.op(), f.errno().isEmpty() ? UNKNOWN : f.errno(), f.message());
    }

    /** The line, without its newline. */
    public String format() {
        StringBuilder line = new StringBuilder(64).append(action).append('\t').append(what).append('\t')
                .append(PathBytes.display(path));
        for (String d : details) line.append('\t').append(escape(d));
        return line.toString();
    }

    /** A line as {@link #format} wrote it. */
    public static ItemLine parse(String line) {
        String[] fields = line.split("\t", -1);
        if (fields.length < 3) throw new IllegalArgumentException("not an item line (fewer than 3 fields): " + line);
        List<String> details = new ArrayList<>();
        for (int i = 3; i < fields.length; i++) details.add(new String(unescape(fields[i]), StandardCharsets.UTF_8));
        return new ItemLine(fields[0], fields[1], fields[2].equals(".") ? PathBytes.EMPTY : unescape(fields[2]), details);
    }

    private static String escape(String text) {
        return text.isEmpty() ? "" : PathBytes.display(text.getBytes(StandardCharsets.UTF_8));
    }

    /** The bytes {@link PathBytes#display} showed. */
    static byte[] unescape(String shown) {
        if (shown.equals(".")) return PathBytes.EMPTY;
        ByteArrayOutputStream out = new ByteArrayOutputStream(shown.length());
        int plain = 0;
        for (int i = 0; i < shown.length(); i++) {
            if (shown.charAt(i) != '\\') continue;
            out.writeBytes(shown.substring(plain, i).getBytes(StandardCharsets.UTF_8));
            char c = i + 1 < shown.length() ? shown.charAt(i + 1) : 0;
            if (c == '\\') out.write('\\');
            else if (c == 'n') out.write('\n');
            else if (c == 'x' && i + 3 < shown.length()) out.write(Integer.parseInt(shown.substring(i + 2, i + 4), 16));
            else throw new IllegalArgumentException("bad escape at " + i + " in " + shown);
            i += c == 'x' ? 3 : 1;
            plain = i + 1;
        }
        out.writeBytes(shown.substring(plain).getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }

    /** {@code prefix/path}, or the prefix alone for the root; the path alone without a prefix. */
    private static byte[] under(byte[] prefix, byte[] path) {
        if (prefix.length == 0) return path;
        return path.length == 0 ? prefix : PathBytes.join(prefix, path);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ItemLine l && action.equals(l.action) && what.equals(l.what) && Arrays.equals(path, l.path)
                && details.equals(l.details);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * action.hashCode() + what.hashCode()) + Arrays.hashCode(path);
    }

    @Override
    public String toString() {
        return format();
    }
}

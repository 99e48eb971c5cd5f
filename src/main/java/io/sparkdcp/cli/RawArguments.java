package io.sparkdcp.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Arguments are bytes, as rsync and cp take them. The JVM decodes its arguments as UTF-8 and puts
 * U+FFFD for each byte it cannot decode; the real bytes are in /proc/self/cmdline, the JVM's arguments
 * last. Only an argument holding U+FFFD is looked up there, and only when every one of the last n
 * entries there decodes to the argument at its place, so the bytes are known to be this argument's.
 *
 * <p>Through picocli, which parses Strings, such an argument travels in an escaped form that decodes
 * exactly ({@link #bytes}): each byte that is not part of UTF-8 becomes the lone surrogate U+DC80..U+DCFF
 * (Python's "surrogateescape"), which no decoding of a command line produces. Options that name
 * paths or patterns turn their value back into bytes; nothing else sees the escaped form.
 *
 * <p>Where the bytes cannot be known the argument is refused in one line: in YARN's (or Kubernetes')
 * cluster mode the driver's command line is not the user's, and spark-submit's own launcher (a JVM)
 * decodes the arguments before the driver starts, putting a real U+FFFD (valid UTF-8) where a byte was lost.
 */
final class RawArguments {
    private static final Path CMDLINE = Path.of("/proc/self/cmdline");
    private static final char LOST = '\uFFFD';
    private static final char ESCAPE_BASE = '\uDC00';

    private RawArguments() {}

    /**
     * The arguments to parse, or the usage error of the first that cannot be taken.
     *
     * @param escaped the arguments, those whose bytes are not UTF-8 in the escaped form; null when refused
     * @param refusal the usage error, or null
     */
    record Taken(String[] escaped, String refusal) {}

    /** The subcommands whose options turn an escaped argument back into bytes. */
    private static final List<String> BYTES_TAKEN = List.of("copy", "sync", "compare");

    /** The JVM's arguments, taken as bytes from this process's command line where it decoded them with loss. */
    static Taken take(String[] args) {
        return take(args, System.getProperty("spark.submit.deployMode"), readCommandLine());
    }

    /** @param deployMode spark-submit's (client or cluster), null when not run by it */
    static Taken take(String[] args, String deployMode, List<byte[]> commandLine) {
        int first = firstLossy(args);
        if (first < 0) return new Taken(args, null);
        List<byte[]> raw = tail(commandLine, args);
        String[] escaped = args.clone();
        for (int i = first; i < args.length; i++) if (raw != null && args[i].indexOf(LOST) >= 0) escaped[i] = escape(raw.get(i));
        if (args.length == 0 || !BYTES_TAKEN.contains(args[0]))
            return refused(escaped[first], "which only copy, sync and compare take");
        if ("cluster".equals(deployMode))
            return refused(escaped[first], "and in cluster mode the driver's command line is not the one given, so its bytes "
                    + "cannot be known: submit in client mode, or name such paths in a --files-from or --exclude-from file");
        if (raw == null) return refused(escaped[first], "and this process's command line does not show its bytes");
        for (int i = first; deployMode != null && i < args.length; i++)
            if (escaped[i].indexOf(LOST) >= 0)
                return new Taken(null, "argument " + shown(escaped[i]) + " holds U+FFFD, which spark-submit's launcher puts "
                        + "for bytes that are not UTF-8 before the driver starts, so its bytes cannot be known: run without "
                        + "SPARK_HOME (submit-scripts/spark-dcp then starts spark-submit's class itself) or with --master local[N]");
        return new Taken(escaped, null);
    }

    /** The bytes an argument stands for: its escaped bytes as they were, the rest as UTF-8. */
    static byte[] bytes(String argument) {
        ByteBuffer out = ByteBuffer.allocate(argument.length() * 3);
        for (int i = 0; i < argument.length(); ) {
            int c = argument.codePointAt(i);
            if (c >= 0xDC80 && c <= 0xDCFF) out.put((byte) (c - ESCAPE_BASE));
            else out.put(new String(Character.toChars(c)).getBytes(StandardCharsets.UTF_8));
            i += Character.charCount(c);
        }
        return Arrays.copyOf(out.array(), out.position());
    }

    /** True when the argument holds bytes that are not UTF-8 (an option that needs a String refuses it). */
    static boolean notUtf8(String argument) {
        for (int i = 0; i < argument.length(); i++) if (isEscapedByte(argument, i)) return true;
        return false;
    }

    /** UTF-8 as it decodes, each byte of a malformed sequence as U+DC80..U+DCFF. */
    static String escape(byte[] bytes) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        while (true) {
            CoderResult result = decoder.decode(in, out, true);
            if (result.isUnderflow()) break;
            for (int i = 0; i < result.length(); i++) out.put((char) (ESCAPE_BASE | (in.get() & 0xff)));
        }
        decoder.flush(out);
        return out.flip().toString();
    }

    /** A lone U+DC80..U+DCFF: a byte {@link #escape} kept (the low half of a real pair is not one). */
    private static boolean isEscapedByte(String text, int i) {
        char c = text.charAt(i);
        return c >= 0xDC80 && c <= 0xDCFF && !(i > 0 && Character.isHighSurrogate(text.charAt(i - 1)));
    }

    private static int firstLossy(String[] args) {
        for (int i = 0; i < args.length; i++) if (args[i].indexOf(LOST) >= 0) return i;
        return -1;
    }

    /**
     * The command line's last args.length entries when each decodes (as the JVM decodes) to the argument
     * at its place; else null: the command line is not this program's arguments.
     */
    private static List<byte[]> tail(List<byte[]> commandLine, String[] args) {
        if (commandLine == null || commandLine.size() < args.length) return null;
        List<byte[]> tail = commandLine.subList(commandLine.size() - args.length, commandLine.size());
        for (int i = 0; i < args.length; i++)
            if (!new String(tail.get(i), StandardCharsets.UTF_8).equals(args[i])) return null;
        return tail;
    }

    /** The entries of /proc/self/cmdline, or null when /proc cannot tell. */
    private static List<byte[]> readCommandLine() {
        try {
            byte[] all = Files.readAllBytes(CMDLINE);
            List<byte[]> parts = new ArrayList<>();
            int start = 0;
            for (int i = 0; i < all.length; i++) {
                if (all[i] != 0) continue;
                parts.add(Arrays.copyOfRange(all, start, i));
                start = i + 1;
            }
            return parts;
        } catch (IOException e) {
            return null;
        }
    }

    private static Taken refused(String argument, String why) {
        return new Taken(null, "argument " + shown(argument) + " is not UTF-8, " + why);
    }

    /** As paths are shown everywhere: escaped bytes and control characters as \xNN, a backslash doubled. */
    static String shown(String argument) {
        return shown(argument, true);
    }

    /** A message that may quote arguments (picocli's), their escaped bytes as \xNN and all else as it is. */
    static String bytesShown(String message) {
        return shown(message, false);
    }

    private static String shown(String text, boolean asPath) {
        StringBuilder sb = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (isEscapedByte(text, i))
                sb.append(String.format("\\x%02x", c - ESCAPE_BASE));
            else if (asPath && c == '\\') sb.append("\\\\");
            else if (asPath && (c < 0x20 || c == 0x7f)) sb.append(String.format("\\x%02x", (int) c));
            else sb.append(c);
        }
        return sb.toString();
    }
}

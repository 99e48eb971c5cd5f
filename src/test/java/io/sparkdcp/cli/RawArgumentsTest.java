package io.sparkdcp.cli;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * When an argument's bytes can be known, and then exactly: the command line is given as /proc/self/cmdline
 * would hold it (the JVM and its options first, the arguments last), the arguments as the JVM decoded them.
 */
@Tag("fast")
class RawArgumentsTest {
    private static final byte[] CAFE = {'c', 'a', 'f', (byte) 0xe9};
    private static final byte[] REPLACED = "caf\uFFFD".getBytes(StandardCharsets.UTF_8);

    /** The JVM's String for these bytes: each byte it cannot decode is U+FFFD. */
    private static String decoded(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static List<byte[]> commandLine(String mainClass, byte[]... args) {
        List<byte[]> line = new ArrayList<>(List.of(bytes("/usr/bin/java"), bytes("-Xmx2g"), bytes(mainClass)));
        line.addAll(List.of(args));
        return line;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void everyByteStringSurvivesTheEscapedFormExactly() {
        Random random = new Random(30);
        for (int i = 0; i < 20_000; i++) {
            byte[] raw = new byte[random.nextInt(12)];
            random.nextBytes(raw);
            assertArrayEquals(raw, RawArguments.bytes(RawArguments.escape(raw)), () -> java.util.HexFormat.of().formatHex(raw));
        }
        for (int b = 0; b < 256; b++) {
            byte[] one = {(byte) b};
            assertArrayEquals(one, RawArguments.bytes(RawArguments.escape(one)));
        }
        String utf8 = "é日本\uD83D\uDE00\uFFFD";
        assertEquals(utf8, RawArguments.escape(bytes(utf8)), "UTF-8, a real U+FFFD and a pair included, is left as it is");
        assertFalse(RawArguments.notUtf8(utf8));
        assertTrue(RawArguments.notUtf8(RawArguments.escape(CAFE)));
    }

    @Test
    void aLossyArgumentIsTakenFromTheCommandLineAtItsPlace() {
        String[] args = {"copy", "--exclude", decoded(CAFE), "src/", "dst"};
        RawArguments.Taken taken = RawArguments.take(args, null,
                commandLine("io.sparkdcp.cli.Main", bytes("copy"), bytes("--exclude"), CAFE, bytes("src/"), bytes("dst")));
        assertNull(taken.refusal());
        assertArrayEquals(CAFE, RawArguments.bytes(taken.escaped()[2]));
        assertEquals("src/", taken.escaped()[3]);
    }

    @Test
    void aCommandLineThatIsNotTheArgumentsIsNotReadForThem() {
        String[] args = {"copy", decoded(CAFE), "dst"};
        // A driver started in another way: the last entries are not these arguments.
        RawArguments.Taken taken = RawArguments.take(args, null, commandLine("Other", bytes("copy"), CAFE, bytes("dst2")));
        assertNull(taken.escaped());
        assertTrue(taken.refusal().contains("command line does not show its bytes"), taken.refusal());
    }

    @Test
    void underSparkSubmitTheBytesAreTakenOnlyWhenTheCommandLineStillHoldsThem() {
        String[] args = {"copy", decoded(CAFE), "dst"};
        // spark-submit's class run straight by java (the launcher without SPARK_HOME): the bytes are there.
        RawArguments.Taken direct = RawArguments.take(args, "client",
                commandLine("org.apache.spark.deploy.SparkSubmit", bytes("copy"), CAFE, bytes("dst")));
        assertArrayEquals(CAFE, RawArguments.bytes(direct.escaped()[1]));
        // spark-submit's script: its launcher JVM wrote the decoded argument back, U+FFFD as UTF-8.
        RawArguments.Taken relaunched = RawArguments.take(args, "client",
                commandLine("org.apache.spark.deploy.SparkSubmit", bytes("copy"), REPLACED, bytes("dst")));
        assertNull(relaunched.escaped());
        assertTrue(relaunched.refusal().startsWith("argument caf\uFFFD holds U+FFFD, which spark-submit's launcher"), relaunched.refusal());
    }

    @Test
    void inClusterModeALossyArgumentIsRefused() {
        String[] args = {"copy", decoded(CAFE), "dst"};
        RawArguments.Taken taken = RawArguments.take(args, "cluster",
                commandLine("org.apache.spark.deploy.yarn.ApplicationMaster", bytes("copy"), CAFE, bytes("dst")));
        assertNull(taken.escaped());
        assertTrue(taken.refusal().startsWith("argument caf\\xe9 is not UTF-8, and in cluster mode"), taken.refusal());
    }

    @Test
    void argumentsThatAreUtf8AreLeftAsTheyAre() {
        String[] args = {"copy", "café\uFFFD", "dst"};
        RawArguments.Taken taken = RawArguments.take(args, null,
                commandLine("io.sparkdcp.cli.Main", bytes("copy"), bytes("café\uFFFD"), bytes("dst")));
        assertEquals(List.of(args), List.of(taken.escaped()), "a real U+FFFD outside spark-submit is a name like any other");
    }
}

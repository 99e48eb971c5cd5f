package io.sparkdcp.testing;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The two JDKs the launcher runs a local copy on: JDK 17 (this test JVM's, the bytecode's release) and
 * the newest JDK 25 or later under /usr/lib/jvm, found as the launcher finds it (each release file).
 */
public final class Jdks {
    private Jdks() {}

    private static final Path JVM_DIR = Path.of("/usr/lib/jvm");
    private static final Pattern JAVA_VERSION = Pattern.compile("(?m)^JAVA_VERSION=\"([^\"]+)\"");

    /** A JDK's home and its version, from its release file. */
    public record Jdk(Path home, Runtime.Version version) {
        public Path java() {
            return home.resolve("bin/java");
        }
    }

    /** The JDK this test runs on, which the launcher's JDK 17 cases run on; below 25. */
    public static Jdk current() {
        Jdk jdk = new Jdk(Path.of(System.getProperty("java.home")), Runtime.version());
        Assertions.assertTrue(jdk.version().feature() < 25, "the tests run on the bytecode's JDK 17, not " + jdk);
        return jdk;
    }

    /**
     * The newest JDK 25 or later: a local copy on it (JAVA_HOME, or java on PATH) makes an AOT cache. CI's machines have one (temurin-25): under
     * CI=true its absence fails; elsewhere the test is skipped, saying why.
     */
    public static Jdk newest25() {
        Optional<Jdk> jdk = installed().filter(j -> j.version().feature() >= 25).max(Comparator.comparing(Jdk::version));
        String reason = "needs a JDK 25 or later under " + JVM_DIR + " (the launcher's AOT cache)";
        if ("true".equals(System.getenv("CI"))) {
            if (jdk.isEmpty()) throw new AssertionError(reason + ", and CI=true forbids skipping");
        } else {
            Assumptions.assumeTrue(jdk.isPresent(), reason);
        }
        return jdk.orElseThrow();
    }

    private static Stream<Jdk> installed() {
        if (!Files.isDirectory(JVM_DIR)) return Stream.empty();
        List<Jdk> jdks = new ArrayList<>();
        try (DirectoryStream<Path> homes = Files.newDirectoryStream(JVM_DIR)) {
            for (Path home : homes) {
                Path release = home.resolve("release");
                if (!Files.isReadable(release) || !Files.isExecutable(home.resolve("bin/java"))) continue;
                Matcher m = JAVA_VERSION.matcher(Files.readString(release));
                if (m.find()) jdks.add(new Jdk(home, Runtime.Version.parse(m.group(1))));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return jdks.stream();
    }
}

package io.sparkdcp.cli;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** --version names the Spark the build was made against, and the one on the class path when that is another. */
@Tag("fast")
class VersionProviderTest {
    @TempDir
    Path tmp;

    @Test
    void withoutSparkOnTheClassPathItNamesTheSparkBuiltAgainst() throws Exception {
        String[] lines = versionOn();
        assertTrue(lines[0].matches("spark-dcp \\d+\\.\\d+\\.\\d+\\S*"), lines[0]);
        assertTrue(lines[1].matches("Spark 4\\.\\d+\\.\\d+\\S* \\(built against; not on this class path\\), Java .*"), lines[1]);
    }

    @Test
    void anotherSparkOnTheClassPathIsNamedWithTheOneBuiltAgainst() throws Exception {
        String built = versionOn()[1].replaceFirst("Spark (\\S+) .*", "$1");
        Path spark = Files.createDirectories(tmp.resolve("spark/META-INF/maven/org.apache.spark/spark-core_2.13"));
        Files.writeString(spark.resolve("pom.properties"), "version=4.0.9\n");
        assertEquals("Spark 4.0.9 (built against " + built + "), Java " + Runtime.version(), versionOn(tmp.resolve("spark"))[1]);
    }

    /** The version lines of spark-dcp's classes loaded with picocli and {@code extra} only: no Spark unless it is there. */
    private static String[] versionOn(Path... extra) throws Exception {
        URL[] urls = new URL[2 + extra.length];
        urls[0] = VersionProvider.class.getProtectionDomain().getCodeSource().getLocation();
        urls[1] = CommandLine.class.getProtectionDomain().getCodeSource().getLocation();
        for (int i = 0; i < extra.length; i++) urls[2 + i] = extra[i].toUri().toURL();
        try (URLClassLoader loader = new URLClassLoader(urls, ClassLoader.getPlatformClassLoader())) {
            Class<?> provider = loader.loadClass(VersionProvider.class.getName());
            var constructor = provider.getDeclaredConstructor();
            constructor.setAccessible(true);
            var getVersion = provider.getDeclaredMethod("getVersion");
            getVersion.setAccessible(true);
            return (String[]) getVersion.invoke(constructor.newInstance());
        }
    }
}

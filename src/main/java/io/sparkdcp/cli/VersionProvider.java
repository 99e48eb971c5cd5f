package io.sparkdcp.cli;

import picocli.CommandLine.IVersionProvider;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** Versions from the jars' Maven descriptors, so the pom stays their only source. */
final class VersionProvider implements IVersionProvider {
    @Override
    public String[] getVersion() {
        return new String[]{
                "spark-dcp " + mavenVersion("io.sparkdcp", "spark-dcp", "(development build, not from the jar)"),
                "Spark " + mavenVersion("org.apache.spark", "spark-core_2.13", "unknown") + ", Java " + Runtime.version()};
    }

    private static String mavenVersion(String group, String artifact, String otherwise) {
        String resource = "/META-INF/maven/" + group + "/" + artifact + "/pom.properties";
        try (InputStream in = VersionProvider.class.getResourceAsStream(resource)) {
            if (in == null) return otherwise;
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version", otherwise);
        } catch (IOException e) {
            return otherwise;
        }
    }
}

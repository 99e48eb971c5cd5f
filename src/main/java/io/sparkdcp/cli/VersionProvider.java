package io.sparkdcp.cli;

import picocli.CommandLine.IVersionProvider;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * spark-dcp's version and the Spark it was built against, from the pom (a filtered resource), and the
 * Spark on the class path, from its jar's Maven descriptor: a local copy on the launcher's short class
 * path has no Spark at all, and a spark-submit may run another Spark than the build's. Public for the
 * commands of modules beside the product ({@link ModuleCommand}), which show the same version.
 */
public final class VersionProvider implements IVersionProvider {
    @Override
    public String[] getVersion() {
        Properties built = read("/io/sparkdcp/cli/version.properties");
        if (built == null) throw new IllegalStateException("version.properties is missing from spark-dcp's classes: a broken build");
        String builtSpark = built.getProperty("spark");
        Properties sparkCore = read("/META-INF/maven/org.apache.spark/spark-core_2.13/pom.properties");
        String running = sparkCore == null ? null : sparkCore.getProperty("version");
        String spark = running == null ? builtSpark + " (built against; not on this class path)"
                : running.equals(builtSpark) ? running
                : running + " (built against " + builtSpark + ")";
        return new String[]{"spark-dcp " + built.getProperty("spark-dcp"), "Spark " + spark + ", Java " + Runtime.version()};
    }

    /** A properties resource, or null when the class path has none. */
    private static Properties read(String resource) {
        try (InputStream in = VersionProvider.class.getResourceAsStream(resource)) {
            if (in == null) return null;
            Properties p = new Properties();
            p.load(in);
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

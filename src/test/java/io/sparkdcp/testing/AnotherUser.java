package io.sparkdcp.testing;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An unprivileged local user of this host (made with useradd when missing), for tests of what
 * someone else on a cluster's node can reach: commands run as it with setpriv, and Spark's jars
 * linked where it can read them (Maven's repository sits under /root, mode 0700).
 */
public final class AnotherUser {
    public static final String NAME = "sparkdcp-other";

    private AnotherUser() {}

    public static void ensureExists() {
        if (Commands.tryRun("id", "-u", NAME).exitCode() != 0) {
            Commands.run("useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", NAME);
        }
    }

    /** The classpath's jars hard-linked (copied across file systems) into dir, readable by all: the new classpath. */
    public static String readableClasspath(Path dir, String classpath) throws IOException {
        Files.createDirectories(dir);
        List<String> out = new ArrayList<>();
        int n = 0;
        for (String entry : classpath.split(":")) {
            Path jar = Path.of(entry);
            if (!Files.isRegularFile(jar)) continue;
            Path target = dir.resolve((n++) + "-" + jar.getFileName());
            try {
                Files.createLink(target, jar);
            } catch (IOException | UnsupportedOperationException otherFileSystem) {
                Files.copy(jar, target, StandardCopyOption.REPLACE_EXISTING);
            }
            out.add(target.toString());
        }
        Commands.run("chmod", "-R", "a+rX", dir.toString());
        return String.join(":", out);
    }

    /** argv run as this user, its output to log (which it owns), with the given environment on top of a clean one. */
    public static Process start(Path log, Map<String, String> environment, List<String> argv) throws IOException {
        Files.deleteIfExists(log);
        Files.createFile(log);
        Commands.run("chown", NAME, log.toString());
        List<String> command = new ArrayList<>(List.of("setpriv", "--reuid=" + NAME, "--regid=" + NAME, "--init-groups", "--"));
        command.addAll(argv);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        builder.environment().clear();
        builder.environment().put("PATH", "/usr/local/bin:/usr/bin:/bin");
        builder.environment().put("HOME", "/nonexistent");
        builder.environment().putAll(environment);
        return builder.start();
    }

    /** A shell script run as this user: its stdout and stderr. */
    public static Commands.Result sh(String script) {
        ProcessBuilder builder = new ProcessBuilder("setpriv", "--reuid=" + NAME, "--regid=" + NAME, "--init-groups", "--", "sh", "-c", script);
        builder.environment().clear();
        builder.environment().put("PATH", "/usr/local/bin:/usr/bin:/bin");
        return Commands.tryRun(builder);
    }
}

package io.sparkdcp.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Runs the real tools (xfs_io, setfattr, cp ...) the tests build and check trees with. */
public final class Commands {
    private Commands() {}

    /** The sbin directories hold mkfs.xfs and xfs_io but are not on every user's PATH. */
    private static final String EXTRA_PATH = ":/usr/sbin:/sbin:/usr/bin:/bin";

    /** Runs a command and returns its standard output; a non-zero exit throws, quoting stderr. */
    public static String run(String... argv) {
        Result result = tryRun(argv);
        if (result.exitCode() != 0) {
            throw new IllegalStateException(String.join(" ", argv) + " exited " + result.exitCode()
                    + ": " + result.stderr().strip());
        }
        return result.stdout();
    }

    /** Runs a bash script: for names only bash's $'\xff' quoting can spell. */
    public static String bash(String script) {
        return run("bash", "-c", script);
    }

    public record Result(int exitCode, String stdout, String stderr) {}

    public static Result tryRun(String... argv) {
        return tryRun(new ProcessBuilder(List.of(argv)));
    }

    /** Runs a command set up by the caller (its directory, its environment), as tryRun(argv) does. */
    public static Result tryRun(ProcessBuilder builder) {
        String program = builder.command().get(0);
        builder.environment().merge("PATH", EXTRA_PATH, String::concat);
        builder.environment().put("LC_ALL", "C");
        builder.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        try {
            Process process = builder.start();
            // stderr drains on its own thread so a chatty tool cannot block on a full pipe.
            CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> readAll(process.getErrorStream()));
            String stdout = readAll(process.getInputStream());
            int exit = process.waitFor();
            return new Result(exit, stdout, stderr.join());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + program, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + program, e);
        }
    }

    /** True when the command is found on PATH or in the sbin directories. */
    public static boolean available(String command) {
        String path = System.getenv().getOrDefault("PATH", "") + EXTRA_PATH;
        for (String dir : path.split(":")) {
            if (!dir.isEmpty() && java.nio.file.Files.isExecutable(java.nio.file.Path.of(dir, command))) return true;
        }
        return false;
    }

    /** A test that needs the command: skipped without it, except under CI=true, where it fails, saying what is missing. */
    public static void requireTool(String command, String what) {
        boolean present = available(command);
        if ("true".equals(System.getenv("CI"))) {
            if (!present) throw new AssertionError("needs " + what + ", and CI=true forbids skipping");
        } else {
            org.junit.jupiter.api.Assumptions.assumeTrue(present, "needs " + what);
        }
    }

    /** Writes a bash script to file, executable: a stand-in for a tool (mpirun, srun, spark-submit ...). */
    public static Path executable(Path file, String body) throws IOException {
        Files.writeString(file, "#!/usr/bin/env bash\n" + body + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }

    private static String readAll(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

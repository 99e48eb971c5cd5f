package io.sparkdcp.bench;

import io.sparkdcp.copy.StepStats;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/** An external copy command, timed from start to exit. */
public record CommandContender(String name, BiFunction<Path, Path, List<String>> argv) implements Contender {

    public static CommandContender cpArchive() {
        return new CommandContender("cp -a", (src, dst) -> List.of("cp", "-a", src + "/.", dst.toString()));
    }

    public static CommandContender rsyncArchive() {
        return new CommandContender("rsync -aAX", (src, dst) -> List.of("rsync", "-aAX", src + "/", dst + "/"));
    }

    @Override
    public List<String> commandLine(Path source, Path destination) {
        return argv.apply(source, destination);
    }

    @Override
    public RoundResult copy(Path source, Path destination) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(argv.apply(source, destination));
        long start = System.nanoTime();
        int exit = Processes.run(command);
        long wall = System.nanoTime() - start;
        return new RoundResult(wall, exit == 0 ? 0 : 1, new StepStats());
    }

    /** True when the command's program is on PATH. */
    public static boolean installed(String program) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            if (!dir.isEmpty() && Path.of(dir, program).toFile().canExecute()) return true;
        }
        return false;
    }
}

package io.sparkdcp.bench;

import java.nio.file.Path;
import java.util.List;

/** One way of copying the tree that the bench times: a variant of the engine, or a command such as cp -a. */
public interface Contender {
    /** The row's name in the table and the JSON. */
    String name();

    /** Copies source's contents into destination, which does not exist yet. */
    RoundResult copy(Path source, Path destination) throws Exception;

    /** The same copy as a command of its own, for strace to count its system calls. */
    List<String> commandLine(Path source, Path destination);
}

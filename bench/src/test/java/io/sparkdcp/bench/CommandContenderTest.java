package io.sparkdcp.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How the dcp contender finds mpifileutils' dcp and mpirun (stand-in programs; no MPI needed) and the command it runs. */
class CommandContenderTest {
    private static final Path SRC = Path.of("/data/src");
    private static final Path DST = Path.of("/scratch/dst");

    @TempDir
    Path tmp;

    @Test
    void theVariablesNameDcpAndMpirunOutsidePath() throws IOException {
        Path dcp = program("opt/mpifileutils/bin/dcp");
        Path mpirun = program("mpi/bin/mpirun");
        Map<String, String> env = Map.of("SPARK_DCP_DCP", dcp.toString(), "MPIRUN", mpirun.toString(),
                "PATH", Files.createDirectory(tmp.resolve("empty")).toString());

        List<String> argv = CommandContender.dcp(env).orElseThrow().commandLine(SRC, DST);

        assertEquals(List.of(mpirun.toString(), "-np", "2", dcp.toString(), "-p", SRC.toString(), DST.toString()),
                argv.subList(argv.indexOf(mpirun.toString()), argv.size()));
        assertTrue(argv.containsAll(List.of("OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1")), "root may run it: " + argv);
    }

    @Test
    void withoutTheVariablesBothAreTakenFromPath() throws IOException {
        Path dcp = program("bin/dcp");
        Path mpirun = program("bin/mpirun");

        List<String> argv = CommandContender.dcp(Map.of("PATH", "/nonexistent:" + dcp.getParent())).orElseThrow().commandLine(SRC, DST);

        assertEquals(List.of(mpirun.toString(), "-np", "2", dcp.toString(), "-p"), argv.subList(argv.indexOf(mpirun.toString()), argv.size() - 2));
    }

    @Test
    void noContenderWhenDcpOrMpirunIsMissing() throws IOException {
        Path dcp = program("dcp-only/dcp");
        Path mpirun = program("mpirun-only/mpirun");

        assertEquals(Optional.empty(), CommandContender.dcp(Map.of("PATH", dcp.getParent().toString())));
        assertEquals(Optional.empty(), CommandContender.dcp(Map.of("PATH", mpirun.getParent().toString())));
        assertEquals(Optional.empty(), CommandContender.dcp(Map.of("SPARK_DCP_DCP", dcp.toString(), "PATH", dcp.getParent().toString())));
    }

    @Test
    void aVariableNamingNoProgramIsAnErrorThatNamesIt() throws IOException {
        Path notExecutable = Files.writeString(tmp.resolve("dcp"), "");
        Path mpirun = program("bin/mpirun");

        for (String named : List.of(notExecutable.toString(), tmp.resolve("missing").toString(), tmp.toString())) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> CommandContender.dcp(Map.of("SPARK_DCP_DCP", named, "MPIRUN", mpirun.toString())));
            assertEquals("SPARK_DCP_DCP=" + named + " is not an executable file", e.getMessage());
        }
    }

    private Path program(String relative) throws IOException {
        Path path = tmp.resolve(relative);
        Files.createDirectories(path.getParent());
        Files.writeString(path, "#!/bin/sh\nexit 0\n");
        Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rwxr-xr-x"));
        return path;
    }
}

package io.sparkdcp.job.ledger;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/** Tests: a generation of the state ledger read, and rewritten as a hand (a restore tool) would, its HEADER sealed again. */
public final class Ledgers {
    private Ledgers() {}

    /** The generation in force in dir, read whole (it must be). */
    public static StateLedger.Generation inForce(Path dir) throws IOException {
        try (var names = Files.list(dir)) {
            Path newest = names.filter(p -> p.getFileName().toString().startsWith("state-")).sorted().reduce((a, b) -> b).orElseThrow();
            byte[] header = Files.readAllBytes(newest.resolve("HEADER"));
            List<StateLedger.Part> parts = new ArrayList<>();
            for (String line : new String(header, StandardCharsets.UTF_8).split("\n")) {
                String[] f = line.split(" ");
                if (f[0].equals("part")) parts.add(new StateLedger.Part(f[1], Long.parseLong(f[2]), f[3]));
            }
            return new StateLedger.Generation(newest.toString(), parts);
        }
    }

    /** Each part's blocks replaced by what {@code change} makes of them, and the HEADER sealed again for the new parts. */
    public static void rewrite(Path dir, UnaryOperator<List<LedgerBlock>> change) throws IOException {
        StateLedger.Generation g = inForce(dir);
        Path header = Path.of(g.path(), "HEADER");
        String text = Files.readString(header);
        for (StateLedger.Part p : g.parts()) {
            List<LedgerBlock> blocks = change.apply(StateLedger.readPart(g, p));
            StateLedger.Part written = StateLedger.writePart(g.path(), blocks);
            text = text.replace("part " + p.name() + " " + p.bytes() + " " + p.sha256() + "\n",
                    "part " + written.name() + " " + written.bytes() + " " + written.sha256() + "\n");
        }
        String body = text.substring(0, text.lastIndexOf("sha256 "));
        Files.writeString(header, body + "sha256 " + StateLedger.sha256(body) + "\n");
    }

    /** The first part file of the newest generation in force, by name. */
    public static Path firstPart(Path dir) throws IOException {
        Path newest;
        try (var names = Files.list(dir)) {
            newest = names.filter(p -> p.getFileName().toString().startsWith("state-")).sorted().reduce((a, b) -> b).orElseThrow();
        }
        try (var names = Files.list(newest)) {
            return names.filter(p -> p.getFileName().toString().startsWith("part-")).sorted().findFirst().orElseThrow();
        }
    }
}

package io.sparkdcp.cli;

import io.sparkdcp.api.CopyRequest;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The engine's options, shared by copy, sync, compare and bench: each one goes straight into the API's
 * request builder, which checks it and holds its default ({@code CopyRequest.DEFAULT_*}). The bench
 * changes two defaults with a default provider of its own, so its help shows them. A public mixin, with
 * {@link #request()}, {@link #given} and {@link #words}, for the bench's command ({@link ModuleCommand}).
 */
public final class EngineOptions {
    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    final CopyRequest.Builder request = CopyRequest.builder();
    /** The options as given (defaults included), to hand the same request to another process. */
    private final Map<String, String> given = new LinkedHashMap<>();

    @Option(names = "--xattrs", paramLabel = "none|all|non-lustre|libattr", defaultValue = CopyRequest.DEFAULT_XATTRS,
            description = "Extended attributes to copy (ACLs included): non-lustre skips those Lustre manages itself, "
                    + "libattr those /etc/xattr.conf marks skip. Default: ${DEFAULT-VALUE}.")
    void xattrs(String word) { set("--xattrs", word, r -> r.xattrs(word)); }

    @Option(names = "--batch-files", paramLabel = "N", defaultValue = CopyRequest.DEFAULT_BATCH_FILES,
            description = "Entries per task at most. Default: ${DEFAULT-VALUE}.")
    void batchFiles(int n) { set("--batch-files", String.valueOf(n), r -> r.batchFiles(n)); }

    @Option(names = "--batch-bytes", paramLabel = "SIZE", defaultValue = CopyRequest.DEFAULT_BATCH_BYTES,
            description = "File bytes per task at most (K, M, G, T: binary units). Default: ${DEFAULT-VALUE}.")
    void batchBytes(String size) { set("--batch-bytes", size, r -> r.batchBytes(size)); }

    @Option(names = "--chunk-size", paramLabel = "SIZE", defaultValue = CopyRequest.DEFAULT_CHUNK_SIZE,
            description = "Files larger than this are copied in chunks of this size (at least 1M) by several tasks. "
                    + "Default: ${DEFAULT-VALUE}.")
    void chunkSize(String size) { set("--chunk-size", size, r -> r.chunkSize(size)); }

    @Option(names = "--walk-threads", paramLabel = "N",
            description = "Threads listing the source, on the driver or in each walk task, 1 to " + CopyRequest.MAX_THREADS
                    + " (default: twice the CPUs, from 4 to 32, or the CPUs times --threads-per-task, up to 64, when that is more).")
    void walkThreads(int n) { set("--walk-threads", String.valueOf(n), r -> r.walkThreads(n)); }

    @Option(names = "--threads-per-task", paramLabel = "N", defaultValue = CopyRequest.DEFAULT_THREADS_PER_TASK,
            description = "Files each task copies at once, each by its own thread, 1 to " + CopyRequest.MAX_THREADS
                    + ": hides per-call latency on file systems such as Lustre. Default: ${DEFAULT-VALUE}.")
    void threadsPerTask(int n) { set("--threads-per-task", String.valueOf(n), r -> r.threadsPerTask(n)); }

    /** The builder the options went into; its {@link CopyRequest.Builder#build} checks them together. */
    public CopyRequest.Builder request() {
        return request;
    }

    /** The word given for {@code option}, or its default. */
    public String given(String option) {
        return given.get(option);
    }

    /** The options as words that parse to this same request. */
    public List<String> words() {
        List<String> words = new ArrayList<>();
        given.forEach((option, word) -> {
            words.add(option);
            words.add(word);
        });
        return words;
    }

    /** The value of {@code option}, given as {@code word}, into the request; the mixins beside this one use it too. */
    void set(String option, String word, Consumer<CopyRequest.Builder> setter) {
        OptionValue.set(command, option, () -> setter.accept(request));
        given.put(option, word);
    }

    /** The engine options of the command that holds {@code command}'s other mixins. */
    static EngineOptions of(CommandSpec command) {
        for (CommandSpec mixin : command.mixins().values()) {
            if (mixin.userObject() instanceof EngineOptions engine) return engine;
        }
        throw new IllegalStateException("these options need the engine options beside them");
    }
}

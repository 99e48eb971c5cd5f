package io.sparkdcp.cli;

import io.sparkdcp.api.CopyRequest;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The request of copy, sync, compare and bench, which their options go into as picocli parses them: the
 * option table's ({@link TableOptions}) and the command's own. The builder checks each value; the table
 * holds the defaults. The bench changes two defaults with a default provider of its own, so its help
 * shows them. A public mixin, with {@link #request()}, {@link #given} and {@link #words}, for the bench's
 * command ({@link ModuleCommand}).
 */
@Command // a mixin of no annotated option, which picocli takes only as a command
public final class EngineOptions {
    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    final CopyRequest.Builder request = CopyRequest.builder();
    /** The options as given (defaults included), to hand the same request to another process. */
    private final Map<String, String> given = new LinkedHashMap<>();

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

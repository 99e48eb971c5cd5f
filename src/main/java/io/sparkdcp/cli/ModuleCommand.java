package io.sparkdcp.cli;

import java.util.concurrent.Callable;

/**
 * A subcommand that a jar beside the product's brings (the bench module's {@code bench} and
 * {@code scale-bench}): a picocli {@code @Command} with a name, public with a public no-argument
 * constructor, listed in that jar's {@code META-INF/services/io.sparkdcp.cli.ModuleCommand}.
 * {@code spark-dcp} finds it with {@link java.util.ServiceLoader} and lists it only when its jar is
 * on the class path. Such a command reaches the product through its public types: the API, and the
 * CLI's public option mixins and converters.
 */
public interface ModuleCommand extends Callable<Integer> {
}

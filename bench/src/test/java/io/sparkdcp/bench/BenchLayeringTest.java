package io.sparkdcp.bench;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * How the bench module uses the product, checked on its compiled classes (bench/target/classes): the
 * latency file system is a file system over the product's libc binding and nothing else of it, the
 * bench is a library its commands use (never the other way), and those commands (BenchCommand,
 * ScaleBenchCommand in bench.cli, found by the product's CLI as ModuleCommands) go through the API and
 * the CLI's public mixins as the product's CLI does. No package is in both jars. The product's own
 * rules are LayeringTest's. Each rule is also shown to fail on a plant.
 */
class BenchLayeringTest {
    private static final String ROOT = "io.sparkdcp";
    private static JavaClasses bench;

    @BeforeAll
    static void importClasses() {
        bench = new ClassFileImporter().importPath(location(Bench.class));
    }

    private static final ArchRule LATENCY_FS_ON_LIBC_ALONE = noClasses().that().resideInAPackage(ROOT + ".bench.latencyfs..")
            .should().dependOnClassesThat(resideInAPackage(ROOT + "..")
                    .and(not(resideInAnyPackage(ROOT + ".posix..", ROOT + ".bench.latencyfs.."))))
            .because("the latency file system slows the copy down and must not share its code");

    private static final ArchRule BENCH_BELOW_ITS_COMMANDS = noClasses().that().resideInAPackage(ROOT + ".bench..")
            .and().resideOutsideOfPackage(ROOT + ".bench.cli..")
            .should().dependOnClassesThat().resideInAnyPackage(ROOT + ".cli..", ROOT + ".bench.cli..")
            .because("the bench's commands use the bench, not the other way");

    private static final ArchRule COMMANDS_THROUGH_THE_API = noClasses().that().resideInAPackage(ROOT + ".bench.cli..")
            .should().dependOnClassesThat().resideInAnyPackage(ROOT + ".posix..", ROOT + ".progress..", ROOT + ".walk..",
                    ROOT + ".plan..", ROOT + ".copy..", ROOT + ".report..", ROOT + ".roots..", ROOT + ".itemlog..", ROOT + ".job..",
                    ROOT + ".spark..")
            .because("the bench's commands are CLI commands: clients of io.sparkdcp.api and of the bench");

    @Test
    void theLatencyFileSystemUsesOnlyTheProductsLibcBinding() {
        LATENCY_FS_ON_LIBC_ALONE.check(bench);
    }

    @Test
    void theBenchDoesNotUseItsCommands() {
        BENCH_BELOW_ITS_COMMANDS.check(bench);
    }

    @Test
    void theBenchsCommandsGoThroughTheApi() {
        COMMANDS_THROUGH_THE_API.check(bench);
    }

    /**
     * The bench's jar and the product's share no package: a class of one cannot reach what the other's
     * package keeps to itself, and each jar can be built, sealed or left out alone.
     */
    @Test
    void noPackageHasClassesInBothJars() {
        Set<String> product = packages(location(io.sparkdcp.cli.Main.class));
        Set<String> shared = packages(location(Bench.class));
        shared.retainAll(product);
        assertEquals(Set.of(), shared, "packages with classes in both the bench's and the product's jar");
    }

    private static Set<String> packages(Path classes) {
        Set<String> names = new TreeSet<>();
        new ClassFileImporter().importPath(classes).forEach(c -> names.add(c.getPackageName()));
        return names;
    }

    /** Each rule fails once its plant is added: latencyfs calling the API, the bench calling the CLI, a command calling libc. */
    @Test
    void eachRuleFailsOnAPlantedViolation() {
        assertFailsWith(LATENCY_FS_ON_LIBC_ALONE, io.sparkdcp.bench.latencyfs.LayeringPlant.class);
        assertFailsWith(BENCH_BELOW_ITS_COMMANDS, io.sparkdcp.bench.LayeringPlant.class);
        assertFailsWith(COMMANDS_THROUGH_THE_API, io.sparkdcp.bench.cli.LayeringPlant.class);
    }

    private static void assertFailsWith(ArchRule rule, Class<?> plant) {
        try {
            Path plantFile = Path.of(plant.getResource(plant.getSimpleName() + ".class").toURI());
            JavaClasses withPlant = new ClassFileImporter().importPaths(location(Bench.class), plantFile);
            assertThrows(AssertionError.class, () -> rule.check(withPlant), rule.getDescription() + " passed with " + plant.getName());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Path location(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}

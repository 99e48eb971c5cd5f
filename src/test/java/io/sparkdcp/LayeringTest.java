package io.sparkdcp;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The architecture of the brief, checked on the compiled classes: packages depend only downward
 * (posix and progress, walk, plan, the engine's parts then copy, report, roots, itemlog, the job's parts
 * then the recipes in job, spark, api, then cli; the bench, in a module of its own, has its own rules:
 * BenchLayeringTest),
 * no package cycles, the engine without Spark or Scala, the CLI through the API only, and Scala's
 * types in one adapter class. Each rule is also run once on the production classes plus a planted
 * violation (test classes named LayeringPlant in the packages concerned), to show it can fail.
 */
@Tag("fast")
class LayeringTest {
    private static final String ROOT = "io.sparkdcp";
    /** The planted violations, one per rule at least: test classes, read with the production classes. */
    private static final List<Class<?>> PLANTS = List.of(io.sparkdcp.posix.LayeringPlant.class, io.sparkdcp.cli.LayeringPlant.class,
            io.sparkdcp.copy.LayeringPlant.class, io.sparkdcp.spark.LayeringPlant.class, io.sparkdcp.job.exec.LayeringPlant.class);
    private static JavaClasses withPlants;
    private static JavaClasses production;

    /**
     * The production classes' directory alone, and once with the plants' class files, read from disk (no class
     * is loaded). Two imports, not a subset of one: a layer's rule looks at who accesses it, plants included.
     * Importing again for each plant made this the fast lane's slowest class.
     */
    @BeforeAll
    static void importClasses() throws java.net.URISyntaxException {
        Path classes = Path.of(io.sparkdcp.api.SparkDcp.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<Path> paths = new java.util.ArrayList<>(List.of(classes));
        for (Class<?> plant : PLANTS) paths.add(Path.of(plant.getResource(plant.getSimpleName() + ".class").toURI()));
        production = new ClassFileImporter().importPaths(classes);
        withPlants = new ClassFileImporter().importPaths(paths);
    }

    /**
     * The packages from the bottom up: each may use only those below it. The engine's parts sit below the
     * engine (io.sparkdcp.copy itself); root safety and the item log below the job's parts. Of those, what
     * a listing is asked for and counts (job.listing) sits lowest, then the seam the recipes run on
     * (job.exec: spreads, runners, the listing's walks), then what runs inside a task (job.inflight) and
     * the state ledger (job.ledger), and on top the recipes (io.sparkdcp.job itself): the seam, the
     * listing and the ledger know no recipe.
     */
    private static final List<String> BOTTOM_UP = List.of("posix", "progress", "store", "walk", "plan",
            "copy.steps", "copy.throttle", "copy.keep", "copy.options", "copy.decision", "copy.compare", "copy",
            "report", "roots", "itemlog", "job.listing", "job.exec", "job.inflight", "job.ledger", "job", "spark", "api", "cli");

    /** The layers whose sub-packages are layers of their own (listed before them). */
    private static final List<String> WITHOUT_SUBPACKAGES = List.of("copy", "job");

    private static final ArchRule LAYERS = layers();

    /** Each package a layer (copy and job without their sub-packages, which are layers of their own), open to the ones above it. */
    private static ArchRule layers() {
        LayeredArchitecture layers = layeredArchitecture().consideringOnlyDependenciesInLayers();
        for (String p : BOTTOM_UP) layers = layers.layer(p).definedBy(ROOT + "." + p + (WITHOUT_SUBPACKAGES.contains(p) ? "" : ".."));
        int top = BOTTOM_UP.size() - 1;
        for (int i = 0; i < top; i++)
            layers = layers.whereLayer(BOTTOM_UP.get(i)).mayOnlyBeAccessedByLayers(BOTTOM_UP.subList(i + 1, top + 1).toArray(String[]::new));
        return layers.whereLayer(BOTTOM_UP.get(top)).mayNotBeAccessedByAnyLayer();
    }

    /** Every package a slice of its own, sub-packages included: copy and copy.options must not use each other either. */
    private static final ArchRule NO_CYCLES = slices().matching(ROOT + ".(**)").should().beFreeOfCycles();

    private static final ArchRule ENGINE_WITHOUT_SPARK = noClasses().that()
            .resideInAnyPackage(ROOT + ".posix..", ROOT + ".progress..", ROOT + ".walk..", ROOT + ".plan..", ROOT + ".copy..",
                    ROOT + ".report..", ROOT + ".roots..", ROOT + ".itemlog..", ROOT + ".job..")
            .should().dependOnClassesThat().resideInAnyPackage("org.apache.spark..", "scala..")
            .because("the engine runs and is tested without Spark");

    private static final ArchRule CLI_THROUGH_THE_API = noClasses().that().resideInAPackage(ROOT + ".cli..")
            .should().dependOnClassesThat().resideInAnyPackage(ROOT + ".posix..", ROOT + ".progress..", ROOT + ".walk..",
                    ROOT + ".plan..", ROOT + ".copy..", ROOT + ".report..", ROOT + ".roots..", ROOT + ".itemlog..", ROOT + ".job..",
                    ROOT + ".spark..")
            .because("the CLI is a client of io.sparkdcp.api like a notebook");

    private static final ArchRule SCALA_IN_ONE_ADAPTER = noClasses().that()
            .doNotHaveFullyQualifiedName(ROOT + ".spark.ScalaAdapter")
            // Spread's operations on the executors are pair RDDs, whose Java API speaks scala.Tuple2.
            .and().doNotHaveFullyQualifiedName(ROOT + ".spark.RddSpread")
            .should().dependOnClassesThat().resideInAPackage("scala..")
            .because("Spark's Scala types are turned into Java values in one place");

    @Test
    void packagesDependOnlyDownward() {
        LAYERS.check(production);
    }

    @Test
    void packagesHaveNoCycles() {
        NO_CYCLES.check(production);
    }

    @Test
    void theEngineImportsNothingFromSparkOrScala() {
        ENGINE_WITHOUT_SPARK.check(production);
    }

    @Test
    void theCliDependsOnlyOnTheApi() {
        CLI_THROUGH_THE_API.check(production);
    }

    @Test
    void onlyTheScalaAdapterTouchesScala() {
        SCALA_IN_ONE_ADAPTER.check(production);
    }

    /** Each rule fails once its plant is added: posix reaching up to walk, cli into job, copy into Spark, spark into scala, the seam into a recipe. */
    @Test
    void eachRuleFailsOnAPlantedViolation() {
        assertFailsWith(LAYERS, io.sparkdcp.posix.LayeringPlant.class);
        assertFailsWith(NO_CYCLES, io.sparkdcp.posix.LayeringPlant.class);
        assertFailsWith(CLI_THROUGH_THE_API, io.sparkdcp.cli.LayeringPlant.class);
        assertFailsWith(LAYERS, io.sparkdcp.copy.LayeringPlant.class);
        assertFailsWith(ENGINE_WITHOUT_SPARK, io.sparkdcp.copy.LayeringPlant.class);
        assertFailsWith(SCALA_IN_ONE_ADAPTER, io.sparkdcp.spark.LayeringPlant.class);
        assertFailsWith(LAYERS, io.sparkdcp.job.exec.LayeringPlant.class);
    }

    /** The rule, run on the production classes and all plants, fails and names this plant among its violations. */
    private static void assertFailsWith(ArchRule rule, Class<?> plant) {
        AssertionError failure = assertThrows(AssertionError.class, () -> rule.check(withPlants),
                rule.getDescription() + " passed with " + plant.getName());
        assertTrue(failure.getMessage().contains(plant.getName()), rule.getDescription() + " did not name " + plant.getName()
                + ": " + failure.getMessage());
    }
}

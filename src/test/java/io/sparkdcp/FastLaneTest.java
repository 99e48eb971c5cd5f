package io.sparkdcp;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.platform.commons.annotation.Testable;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The fast lane ({@code mvn test -Dgroups=fast}) stays honest, checked on the compiled test classes: a test
 * class is tagged "fast" exactly when it reaches no loop mount, no child process and no Spark, directly or
 * through other test classes, and names no Spark master for the CLI to start in this JVM. Production classes
 * are not followed (the CLI reaches Spark behind its doors whether a run starts it or not), nor the
 * LayeringPlant classes, which LayeringTest reads as class files and never runs.
 */
@Tag("fast")
class FastLaneTest {
    private static final String FAST = "fast";
    /** Class name prefixes a fast test must not reach: Spark, Process/ProcessBuilder/ProcessHandle, the mount and the child JVM helpers. */
    private static final List<String> HEAVY = List.of("org.apache.spark.", "java.lang.Process",
            "io.sparkdcp.testing.LoopMount", "io.sparkdcp.testing.ChildJvm");
    /** A master the CLI would start Spark on in this JVM, as a class file's string constant holds it (not this one's). */
    private static final Pattern SPARK_MASTER = Pattern.compile("local\\[[1-9*]|spark:/{2}");
    private static final String PLANT = "LayeringPlant";
    /** The bench's tests move to their own module with the bench. */
    private static final String BENCH = "io.sparkdcp.bench.";

    private static JavaClasses tests;
    private static Map<String, String> heavy;

    @BeforeAll
    static void importTestClasses() {
        tests = new ClassFileImporter().withImportOption(ImportOption.Predefined.ONLY_INCLUDE_TESTS).importPackages("io.sparkdcp");
        heavy = reachingHeavy(tests);
    }

    @Test
    void noFastTestClassReachesAMountAProcessOrSpark() {
        List<String> wrong = testClasses().filter(FastLaneTest::taggedFast).filter(c -> heavy.containsKey(c.getName()))
                .map(c -> c.getName() + " -> " + heavy.get(c.getName())).toList();
        assertEquals(List.of(), wrong, "tagged fast, yet they reach a mount, a process or Spark");
    }

    @Test
    void everyTestClassThatNeedsNoneOfThemIsTaggedFast() {
        List<String> untagged = testClasses().filter(c -> !taggedFast(c) && !heavy.containsKey(c.getName()))
                .filter(c -> !c.getName().startsWith(BENCH)).map(JavaClass::getName).toList();
        assertEquals(List.of(), untagged, "they need no mount, process or Spark: tag them @Tag(\"" + FAST + "\")");
    }

    /** Top-level classes with a JUnit test method (@Test, @ParameterizedTest, ...), by name. */
    private static Stream<JavaClass> testClasses() {
        return tests.stream().filter(JavaClass::isTopLevelClass)
                .filter(c -> c.getMethods().stream().anyMatch(FastLaneTest::isTest))
                .sorted(Comparator.comparing(JavaClass::getName));
    }

    /** Annotated with a JUnit annotation that marks a test (those carry @Testable; ArchUnit does not resolve it on its own). */
    private static boolean isTest(JavaMethod m) {
        return m.getAnnotations().stream().anyMatch(a -> a.getRawType().reflect().isAnnotationPresent(Testable.class));
    }

    private static boolean taggedFast(JavaClass c) {
        return c.tryGetAnnotationOfType(Tag.class).map(Tag::value).filter(FAST::equals).isPresent();
    }

    /** Each test class that reaches a heavy class, directly or through other test classes, with the way it does ("A -> B"). */
    private static Map<String, String> reachingHeavy(JavaClasses tests) {
        Map<String, String> way = new HashMap<>();
        for (JavaClass c : tests) if (!c.getSimpleName().equals(PLANT)) directlyHeavy(c).ifPresent(target -> way.put(c.getName(), target));
        for (boolean grew = true; grew; ) {
            grew = false;
            for (JavaClass c : tests) {
                if (way.containsKey(c.getName())) continue;
                Optional<String> through = c.getDirectDependenciesFromSelf().stream().map(FastLaneTest::target)
                        .filter(way::containsKey).findFirst();
                if (through.isPresent()) {
                    way.put(c.getName(), through.get() + " -> " + way.get(through.get()));
                    grew = true;
                }
            }
        }
        return way;
    }

    /** The heavy class c uses itself, Runtime.exec when it starts a process that way, or the Spark master it names. */
    private static Optional<String> directlyHeavy(JavaClass c) {
        if (HEAVY.stream().anyMatch(c.getName()::startsWith)) return Optional.of("itself");
        if (namesASparkMaster(c)) return Optional.of("a Spark master (" + SPARK_MASTER.pattern() + ")");
        Optional<String> used = c.getDirectDependenciesFromSelf().stream().map(FastLaneTest::target)
                .filter(t -> HEAVY.stream().anyMatch(t::startsWith)).sorted().findFirst();
        if (used.isPresent()) return used;
        return c.getMethodCallsFromSelf().stream()
                .filter(call -> call.getTargetOwner().isEquivalentTo(Runtime.class) && call.getName().equals("exec"))
                .map(call -> "java.lang.Runtime.exec").findFirst();
    }

    private static boolean namesASparkMaster(JavaClass c) {
        try {
            return SPARK_MASTER.matcher(new String(Files.readAllBytes(Path.of(c.getSource().orElseThrow().getUri())), ISO_8859_1)).find();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String target(Dependency d) {
        return d.getTargetClass().getBaseComponentType().getName();
    }
}

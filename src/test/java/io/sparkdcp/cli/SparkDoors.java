package io.sparkdcp.cli;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The rule that keeps a local run (the launcher without --master: app jar and Jackson only) free of Spark's class path,
 * checked on the compiled classes: a class that a local run loads either reaches nothing of Spark, Hadoop, log4j or
 * Scala, directly or through other spark-dcp classes, or is one of the {@link #DOORS}: the few classes that choose
 * between the local run and Spark (or Hadoop, log4j) by an option and touch that side only in its branch. A door's
 * Spark-side callee is linked only when called, so it is checked where it is loaded: compare before 407a77b loaded
 * io.sparkdcp.spark.ExecutorCompare, which reaches Spark and is no door.
 */
final class SparkDoors {
    /** Packages a local run's class path lacks. */
    private static final List<String> ABSENT = List.of("org.apache.spark.", "org.apache.hadoop.", "org.apache.logging.", "scala.");

    /** Each door, and the branch in which it touches Spark's side. */
    static final Map<String, String> DOORS = Map.ofEntries(
            Map.entry("io.sparkdcp.cli.Main", "ApplicationMasterExit only when main runs in YARN's ApplicationMaster (cluster mode)"),
            Map.entry("io.sparkdcp.cli.CopyCommand", "SparkContexts with --master or spark-submit's master; Logging with --verbose"),
            Map.entry("io.sparkdcp.cli.SyncCommand", "SparkContexts with --master or spark-submit's master"),
            Map.entry("io.sparkdcp.cli.CompareCommand", "SparkContexts with --master or spark-submit's master; Logging with --verbose"),
            Map.entry("io.sparkdcp.cli.SparkContexts$Job", "an interface whose method takes a JavaSparkContext: loading it, as picocli's "
                    + "reflection on CopyCommand does, links nothing"),
            Map.entry("io.sparkdcp.api.SparkDcp", "the notebook API's methods that take a JavaSparkContext"),
            Map.entry("io.sparkdcp.api.PreparedCopy", "run/dryRun on a JavaSparkContext; the executors' plan only when runner.onSpark(); ItemLogDir with --log"),
            Map.entry("io.sparkdcp.api.PreparedCompare", "run on a JavaSparkContext (a SparkPhaseRunner); ItemLogDir with --log"),
            Map.entry("io.sparkdcp.api.OutOfMemoryWatch", "its log4j filter only when log4j-core is on the class path"),
            Map.entry("io.sparkdcp.store.Store", "HadoopStore only for a place of another scheme than file: (Store.of)"));

    private SparkDoors() {}

    /** The production classes (target/classes), read from disk. */
    static JavaClasses production() {
        return new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("io.sparkdcp");
    }

    /**
     * One line for each loaded class that is no door and reaches Spark's side ("X -> Y: how", Y being the first step
     * of the way); none when the rule holds. Names of classes not among the production classes (lambdas, JDK) are ignored.
     */
    static List<String> violations(JavaClasses production, Collection<String> loaded) {
        Set<String> reaching = reachingSparksSide(production);
        List<String> found = new ArrayList<>();
        for (String name : new TreeSet<>(loaded)) {
            if (DOORS.containsKey(name) || !reaching.contains(name)) continue;
            Dependency step = production.get(name).getDirectDependenciesFromSelf().stream()
                    .filter(d -> absent(target(d)) || reaching.contains(target(d)))
                    .min(Comparator.comparing(Dependency::getDescription)).orElseThrow();
            found.add(name + " -> " + target(step) + ": " + step.getDescription());
        }
        return found;
    }

    /** The spark-dcp classes that are no door and reach an absent package, directly or through other such classes. */
    static Set<String> reachingSparksSide(JavaClasses production) {
        Map<String, Set<String>> targets = new HashMap<>();
        for (JavaClass c : production) {
            if (DOORS.containsKey(c.getName())) continue;
            Set<String> names = new HashSet<>();
            for (Dependency d : c.getDirectDependenciesFromSelf()) names.add(target(d));
            targets.put(c.getName(), names);
        }
        Set<String> reaching = new HashSet<>();
        boolean grew = true;
        while (grew) {
            grew = false;
            for (Map.Entry<String, Set<String>> c : targets.entrySet()) {
                if (reaching.contains(c.getKey())) continue;
                if (c.getValue().stream().anyMatch(t -> absent(t) || reaching.contains(t))) grew = reaching.add(c.getKey());
            }
        }
        return reaching;
    }

    /** The doors that reach nothing absent themselves, not even through other classes: no longer needed. */
    static List<String> needless(JavaClasses production) {
        Set<String> reaching = reachingSparksSide(production);
        return DOORS.keySet().stream().sorted().filter(door -> production.get(door).getDirectDependenciesFromSelf().stream()
                .map(SparkDoors::target).noneMatch(t -> absent(t) || reaching.contains(t))).toList();
    }

    private static String target(Dependency d) {
        return d.getTargetClass().getBaseComponentType().getName();
    }

    private static boolean absent(String className) {
        return ABSENT.stream().anyMatch(className::startsWith);
    }
}

package io.sparkdcp.spark;

/** A planted violation for LayeringTest: a class of spark/ other than ScalaAdapter using a Scala type. */
public final class LayeringPlant {
    private LayeringPlant() {}

    static boolean present(scala.Option<?> value) {
        return value.isDefined();
    }
}

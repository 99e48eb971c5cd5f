package io.sparkdcp.cli;

import org.apache.spark.SparkUserAppException;

/**
 * How the driver ends in YARN's cluster mode, where main runs on a thread of the ApplicationMaster.
 * System.exit there would run the AM's shutdown hook before it reported a final status: YARN would
 * mark a good copy FAILED and run it again. So success returns, and a failure throws the exit code
 * to the AM, which ends the application FAILED with "User application exited with status N" (and
 * spark-submit, waiting for it, exits 1). A class of its own: it is the one that needs Spark's
 * classes, and a copy on threads loads Main without them.
 */
final class ApplicationMasterExit {
    private ApplicationMasterExit() {}

    static void finish(int exitCode) throws SparkUserAppException {
        if (exitCode != 0) throw new SparkUserAppException(exitCode, null);
    }
}

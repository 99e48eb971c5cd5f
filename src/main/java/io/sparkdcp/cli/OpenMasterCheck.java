package io.sparkdcp.cli;

import org.apache.spark.SecurityManager;
import org.apache.spark.SecurityManager$;
import org.apache.spark.SparkConf;
import org.apache.spark.rpc.RpcAddress$;
import org.apache.spark.rpc.RpcEnv;
import org.apache.spark.rpc.RpcEnv$;

import java.util.List;

/**
 * A driver that authenticates refuses a standalone master that does not: such a master takes
 * applications from anyone who reaches its port, and its workers, started without the secret,
 * could not start this copy's executors anyway. The check asks the master, without
 * authentication, whether it has its endpoint: an authenticating master answers nothing but
 * a failed handshake (and logs "Failed to parse new auth challenge" for it).
 */
final class OpenMasterCheck {
    /** Master.ENDPOINT_NAME, the endpoint drivers and workers register with. */
    private static final String MASTER_ENDPOINT = "Master";
    static final List<String> PROBE_LOGGERS = List.of("org.apache.spark.rpc", "org.apache.spark.network", "org.apache.spark.SecurityManager");

    /** A usage error (exit 2, nothing written): the commands report an IllegalArgumentException's message in one line. */
    static final class OpenMaster extends IllegalArgumentException {
        OpenMaster(String message) {
            super(message);
        }
    }

    private OpenMasterCheck() {}

    /** {@link OpenMaster} when {@code conf} authenticates and one of its spark:// masters takes unauthenticated calls. */
    static void refuseOpenMaster(SparkConf conf) {
        String master = conf.get("spark.master", "");
        if (!master.startsWith("spark://") || !conf.getBoolean("spark.authenticate", false)) return;
        for (String hostPort : master.substring("spark://".length()).split(",")) {
            int colon = hostPort.lastIndexOf(':');
            if (colon < 0) continue; // Spark itself refuses such a URL
            String host = hostPort.substring(0, colon);
            int port;
            try {
                port = Integer.parseInt(hostPort.substring(colon + 1));
            } catch (NumberFormatException e) {
                continue;
            }
            if (Logging.quietDuring(PROBE_LOGGERS, () -> answersWithoutAuthentication(conf, host, port)))
                throw new OpenMaster("spark://" + hostPort + " takes applications without authentication, from anyone who "
                        + "reaches it: start its master and workers with spark.authenticate and the secret (docs/cluster.md#security)");
        }
    }

    private static boolean answersWithoutAuthentication(SparkConf conf, String host, int port) {
        SparkConf open = conf.clone().set("spark.authenticate", "false").set("spark.network.crypto.enabled", "false")
                .set("spark.rpc.lookupTimeout", "20s").set("spark.rpc.askTimeout", "20s").set("spark.rpc.io.connectionTimeout", "20s");
        SecurityManager security = new SecurityManager(open, SecurityManager$.MODULE$.$lessinit$greater$default$2(),
                SecurityManager$.MODULE$.$lessinit$greater$default$3());
        RpcEnv env = RpcEnv$.MODULE$.create("spark-dcp-master-check", "localhost", 0, open, security, true);
        try {
            env.setupEndpointRef(RpcAddress$.MODULE$.apply(host, port), MASTER_ENDPOINT);
            return true;
        } catch (Exception refusedOrUnreachable) { // Spark throws its checked exceptions undeclared; unreachable: the submission says so
            return false;
        } finally {
            env.shutdown();
        }
    }
}

# Shared by the cluster scripts (sourced): the thin application jar, spark-conf, and spark-submit.
# shellcheck shell=bash disable=SC2034 # the variables are for the scripts that source this file

project="$(cd "${here:?set by the sourcing script}/../.." && pwd)"
app_jar="$project/target/spark-dcp-app.jar"

usage() {
  echo "spark-dcp: usage: $*" >&2
  exit 2
}

# $SPARK_HOME/bin/spark-submit, else spark-submit on PATH.
if [[ -n ${SPARK_HOME:-} && -x $SPARK_HOME/bin/spark-submit ]]; then
  spark_submit="$SPARK_HOME/bin/spark-submit"
elif command -v spark-submit >/dev/null; then
  spark_submit="$(command -v spark-submit)"
else
  usage "no spark-submit: set SPARK_HOME to a Spark 4.1 (Scala 2.13) installation"
fi

# The thin jar (Spark provided) is built once with Maven; a release ships it prebuilt.
if [[ ! -f $app_jar ]]; then
  command -v mvn >/dev/null || usage "$app_jar is missing and Maven (mvn) is not installed to build it"
  (cd "$project" && mvn -q -B -Dmaven.test.skip=true package) >&2
fi

common_args=(
  --class io.sparkdcp.cli.Main
  --name spark-dcp
  --properties-file "$project/spark-conf/spark-defaults.conf"
  --driver-memory "${SPARK_DCP_DRIVER_MEMORY:-2g}"
  --driver-java-options "-Dlog4j.configurationFile=$project/spark-conf/log4j2.properties"
)
[[ -z ${SPARK_DCP_EXECUTOR_CORES:-} ]] || common_args+=(--executor-cores "$SPARK_DCP_EXECUTOR_CORES")
[[ -z ${SPARK_DCP_EXECUTOR_MEMORY:-} ]] || common_args+=(--executor-memory "$SPARK_DCP_EXECUTOR_MEMORY")

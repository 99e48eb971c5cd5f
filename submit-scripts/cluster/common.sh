# Shared by the cluster scripts (sourced): the thin application jar, spark-conf, and spark-submit.
# The same in a clone and in an unpacked distribution: project is the directory holding
# submit-scripts/; in a distribution (lib/ beside it) the jar is lib/spark-dcp-app.jar and spark-conf
# is conf/, and nothing is built.
# shellcheck shell=bash disable=SC2034 # the variables are for the scripts that source this file

project="$(cd "${here:?set by the sourcing script}/../.." && pwd)"
if [[ -d $project/lib ]]; then
  installed=1
  app_jar="$project/lib/spark-dcp-app.jar"
  conf_dir="$project/conf"
else
  installed=""
  app_jar="$project/target/spark-dcp-app.jar"
  conf_dir="$project/spark-conf"
fi

usage() {
  echo "spark-dcp: usage: $*" >&2
  exit 2
}

# $SPARK_HOME/bin/spark-submit, else spark-submit on PATH, else Spark from the build's own jars;
# spark_class (bin/spark-class, for Spark's master and workers) from the same place.
if [[ -n ${SPARK_HOME:-} ]]; then
  [[ -x $SPARK_HOME/bin/spark-submit ]] || usage "no $SPARK_HOME/bin/spark-submit: set SPARK_HOME to a Spark 4.2 (Scala 2.13) installation, or unset it"
  spark_submit="$SPARK_HOME/bin/spark-submit"
  spark_class="$SPARK_HOME/bin/spark-class"
elif command -v spark-submit >/dev/null; then
  spark_submit="$(command -v spark-submit)"
  spark_class="$(dirname "$(readlink -f "$spark_submit")")/spark-class"
else
  spark_submit="$project/submit-scripts/cluster/spark-submit-from-build"
  spark_class="$project/submit-scripts/cluster/spark-class-from-build"
fi

# The thin jar (Spark provided) and the classpath are built once with Maven; the distribution ships them.
if [[ -n $installed ]]; then
  [[ -r $app_jar ]] || usage "cannot read $app_jar: the install is incomplete or not readable by every user"
elif [[ ! -f $app_jar || ($spark_submit == */spark-submit-from-build && ! -f $project/target/classpath.txt) ]]; then
  command -v mvn >/dev/null || usage "$app_jar is missing and Maven (mvn) is not installed to build it"
  (cd "$project" && mvn -q -B -Dmaven.test.skip=true -Dassembly.skipAssembly=true -Dmaven.antrun.skip=true package) >&2
fi

common_args=(
  --class io.sparkdcp.cli.Main
  --name "${SPARK_DCP_NAME:-spark-dcp}"
  --properties-file "$conf_dir/spark-defaults.conf"
  --driver-memory "${SPARK_DCP_DRIVER_MEMORY:-2g}"
  --driver-java-options "-Dlog4j.configurationFile=$conf_dir/log4j2.properties"
)
[[ -z ${SPARK_DCP_EXECUTOR_CORES:-} ]] || common_args+=(--executor-cores "$SPARK_DCP_EXECUTOR_CORES")
[[ -z ${SPARK_DCP_EXECUTOR_MEMORY:-} ]] || common_args+=(--executor-memory "$SPARK_DCP_EXECUTOR_MEMORY")
# More spark-submit options, split at spaces, after the script's own.
submit_options=()
[[ -z ${SPARK_DCP_SUBMIT_OPTIONS:-} ]] || read -ra submit_options <<<"$SPARK_DCP_SUBMIT_OPTIONS"

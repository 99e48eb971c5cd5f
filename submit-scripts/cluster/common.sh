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
fail() {
  echo "spark-dcp: $*" >&2
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
  --properties-file "$conf_dir/spark-defaults.conf" # replaced by private_properties
  --driver-memory "${SPARK_DCP_DRIVER_MEMORY:-2g}"
  --driver-java-options "-Dlog4j.configurationFile=$conf_dir/log4j2.properties"
)
[[ -z ${SPARK_DCP_EXECUTOR_CORES:-} ]] || common_args+=(--executor-cores "$SPARK_DCP_EXECUTOR_CORES")
[[ -z ${SPARK_DCP_EXECUTOR_MEMORY:-} ]] || common_args+=(--executor-memory "$SPARK_DCP_EXECUTOR_MEMORY")
# More spark-submit options, split at spaces, after the script's own.
submit_options=()
[[ -z ${SPARK_DCP_SUBMIT_OPTIONS:-} ]] || read -ra submit_options <<<"$SPARK_DCP_SUBMIT_OPTIONS"

# Spark's shared-secret authentication (docs/cluster.md#security). Spark 4.2 takes a standalone
# cluster's secret from spark.authenticate.secret only (spark.authenticate.secret.file is for
# Kubernetes), and a --conf or -D of it is on a command line every local user sees with ps. So it
# goes into a properties file only this user can read: spark-defaults.conf, then the lines below.
# read_secret FILE: the secret (the file's first line) into $secret, refused unless the file is
# this user's and no one else may read it.
read_secret() {
  local file="$1" owner mode
  [[ -f $file && -r $file ]] || fail "$file: cannot read this secret file"
  read -r owner mode < <(stat -L -c '%u %a' "$file")
  [[ $owner == "$(id -u)" ]] || fail "$file: the secret file is not this user's (chown it, chmod 600)"
  ((8#$mode & 8#077)) && fail "$file: others may read this secret file (mode $mode): chmod 600 it"
  secret=""
  IFS= read -r secret <"$file" || true
  [[ -n $secret ]] || fail "$file: the secret file is empty (its first line is the secret)"
}

# RPC encryption (AES over the authenticated connections) costs a copy little: see
# docs/benchmarks.md. SPARK_DCP_ENCRYPTION=off leaves it out.
encryption_lines() {
  case "${SPARK_DCP_ENCRYPTION:-on}" in
    on) echo "spark.network.crypto.enabled true" ;;
    off) ;;
    *) fail "SPARK_DCP_ENCRYPTION is on or off, not '$SPARK_DCP_ENCRYPTION'" ;;
  esac
}

# private_properties DIR SECRET [LINE...]: writes DIR/spark-dcp.properties (mode 0600): the
# properties of spark-defaults.conf, authentication with SECRET, encryption, and the LINEs; the
# common options then pass it instead of spark-defaults.conf. printf is bash's own: the secret
# reaches no process's arguments. Sets $properties to the file.
private_properties() {
  local dir="$1" secret_value="$2" encryption i
  shift 2
  encryption="$(encryption_lines)" || exit 2
  properties="$dir/spark-dcp.properties"
  (
    umask 077
    {
      cat "$conf_dir/spark-defaults.conf"
      printf '\n# Written by the spark-dcp scripts: only this user may read it.\n'
      printf 'spark.authenticate true\nspark.authenticate.secret %s\n' "$secret_value"
      [[ -z $encryption ]] || printf '%s\n' "$encryption"
      for line in "$@"; do printf '%s\n' "$line"; done
    } >"$properties"
  ) || fail "cannot write $properties"
  for ((i = 0; i < ${#common_args[@]}; i++)); do
    [[ ${common_args[i]} != --properties-file ]] || common_args[i + 1]="$properties"
  done
}

"""Runs the tasks of an Airflow DAG file the way Airflow and the apache-spark provider would, without Airflow.

The DAG is imported with stand-ins for Airflow's modules (Airflow 2's or Airflow 3's import paths)
that record each operator's arguments. Then, for each task in its DAG's order: templated fields are
rendered, on_execute_callback runs, and a SparkSubmitOperator's command line is built by the
provider's rules (SparkSubmitHook._resolve_connection and _build_spark_submit_command, apache/airflow
providers/apache/spark/src/airflow/providers/apache/spark/hooks/spark_submit.py) and run as its hook
does: `spark-submit` from PATH, stdout and stderr together as the task's log. A PythonOperator's
callable is called with its op_args and op_kwargs.

    python3 airflow_dag_tasks.py SPEC.json RESULT.json

SPEC: {"dag": path, "layout": "2" or "3", "connections": {conn_id: {"conn_type", "host", "port",
"extra"}}, "context": {"run_id": ...}, "replace": {site path: test path}, "work_dir": path,
"submit": true to run spark-submit (false: an attempt that stops before it writes anything)}.
RESULT: per task id, its command line, exit code and log, or the callable's result or error.
"""

import importlib.util
import inspect
import json
import re
import subprocess
import sys
import types
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

DAGS = []


class DAG:
    def __init__(self, dag_id, **kwargs):
        self.dag_id = dag_id
        self.tasks = []
        DAGS.append(self)

    def __enter__(self):
        DAG.current = self
        return self

    def __exit__(self, *exc):
        DAG.current = None


DAG.current = None


class BaseOperator:
    template_fields = ()

    def __init__(self, task_id, **kwargs):
        self.task_id = task_id
        self.arguments = kwargs
        self.downstream = []
        DAG.current.tasks.append(self)

    def __rshift__(self, other):
        self.downstream.append(other)
        return other

    def render_template(self, content, context):
        return render(content, context)


class SparkSubmitOperator(BaseOperator):
    # The provider's template fields.
    template_fields = ("application", "conf", "files", "py_files", "jars", "driver_class_path", "packages",
                       "exclude_packages", "keytab", "principal", "proxy_user", "name", "application_args",
                       "env_vars", "post_submit_commands", "properties_file")


class PythonOperator(BaseOperator):
    template_fields = ("templates_dict", "op_args", "op_kwargs")


TEMPLATE = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")


def render(value, context):
    """Jinja's {{ name }} for the names of the context; anything else in braces is refused."""
    if isinstance(value, str):
        rendered = TEMPLATE.sub(lambda m: str(context[m.group(1)]), value)
        if "{{" in rendered or "{%" in rendered:
            raise ValueError(f"a template this stand-in cannot render: {value}")
        return rendered
    if isinstance(value, list):
        return [render(v, context) for v in value]
    if isinstance(value, dict):
        return {k: render(v, context) for k, v in value.items()}
    return value


def install_airflow(layout):
    def module(name, **attributes):
        m = types.ModuleType(name)
        m.__dict__.update(attributes)
        sys.modules[name] = m
        return m

    module("airflow", DAG=DAG) if layout == "2" else module("airflow")
    module("airflow.exceptions", AirflowException=type("AirflowException", (Exception,), {}))
    module("airflow.providers.apache.spark.operators.spark_submit", SparkSubmitOperator=SparkSubmitOperator)
    if layout == "2":
        module("airflow.operators.python", PythonOperator=PythonOperator)
    else:
        module("airflow.sdk", DAG=DAG)
        module("airflow.providers.standard.operators.python", PythonOperator=PythonOperator)


def resolve_connection(arguments, connections):
    """SparkSubmitHook._resolve_connection: yarn and no deploy mode when the connection is missing."""
    data = {"master": "yarn", "queue": None, "deploy_mode": None,
            "spark_binary": arguments.get("spark_binary") or "spark-submit", "namespace": None}
    conn = connections.get(arguments.get("conn_id", "spark_default"))
    if conn is not None:
        host, port = conn.get("host"), conn.get("port")
        if conn["conn_type"] == "spark" and host and ("://" in host or not port):
            data["master"] = host
        else:
            data["master"] = f"{conn['conn_type']}://{host or ''}"
        if port:
            data["master"] = f"{data['master']}:{port}"
        extra = conn.get("extra", {})
        data["queue"] = arguments.get("yarn_queue") or extra.get("queue")
        data["deploy_mode"] = arguments.get("deploy_mode") or extra.get("deploy-mode")
        if not arguments.get("spark_binary"):
            data["spark_binary"] = extra.get("spark-binary", "spark-submit")
        data["namespace"] = extra.get("namespace")
    conf = arguments.get("conf") or {}
    if "spark.kubernetes.namespace" in conf:
        data["namespace"] = conf["spark.kubernetes.namespace"]
    return data


def spark_submit_command(arguments, connection):
    """SparkSubmitHook._build_spark_submit_command, for what a DAG without Kerberos can ask."""
    a = arguments
    command = [connection["spark_binary"], "--master", connection["master"]]
    conf = a.get("conf") or {}
    for key in conf:
        command += ["--conf", f"{key}={conf[key]}"]
    if a.get("env_vars"):
        raise NotImplementedError("this stand-in passes no env_vars")
    for option, key in (("--properties-file", "properties_file"), ("--files", "files"), ("--py-files", "py_files"),
                        ("--archives", "archives"), ("--driver-class-path", "driver_class_path"), ("--jars", "jars"),
                        ("--packages", "packages"), ("--exclude-packages", "exclude_packages"),
                        ("--repositories", "repositories"), ("--num-executors", "num_executors"),
                        ("--total-executor-cores", "total_executor_cores"), ("--executor-cores", "executor_cores"),
                        ("--executor-memory", "executor_memory"), ("--driver-memory", "driver_memory"),
                        ("--keytab", "keytab"), ("--principal", "principal"), ("--proxy-user", "proxy_user")):
        if a.get(key):
            command += [option, str(a[key])]
    if a.get("name", "arrow-spark"):  # the operator's default name
        command += ["--name", a.get("name", "arrow-spark")]
    if a.get("java_class"):
        command += ["--class", a["java_class"]]
    if a.get("verbose"):
        command += ["--verbose"]
    if connection["queue"]:
        command += ["--queue", connection["queue"]]
    if connection["deploy_mode"]:
        command += ["--deploy-mode", connection["deploy_mode"]]
    command += [a.get("application", "")]
    command += a.get("application_args") or []
    return command


def site_to_test(value, replace):
    """The site's paths in the DAG made the test's (longest first, in one pass)."""
    pattern = re.compile("|".join(re.escape(old) for old in sorted(replace, key=len, reverse=True)))
    if isinstance(value, str):
        return pattern.sub(lambda m: replace[m.group(0)], value)
    if isinstance(value, list):
        return [site_to_test(v, replace) for v in value]
    if isinstance(value, dict):
        return {k: site_to_test(v, replace) for k, v in value.items()}
    return value


def rendered_arguments(task, context, replace):
    arguments = dict(task.arguments)
    for field in task.template_fields:
        if field in arguments:
            arguments[field] = site_to_test(render(arguments[field], context), replace)
    return arguments


def run_callbacks(task, context, replace):
    callbacks = task.arguments.get("on_execute_callback") or []
    for callback in callbacks if isinstance(callbacks, list) else [callbacks]:
        # The stand-in renders the site's path: the callback works on the test's.
        site_task = types.SimpleNamespace(render_template=lambda content, ctx: site_to_test(render(content, ctx), replace))
        callback({**context, "task": site_task})


def run_spark_submit(task, command, connection, work_dir):
    """As SparkSubmitHook.submit: stdout and stderr are the task's log, the exit code its result."""
    cwd = Path(work_dir) / task.task_id
    cwd.mkdir(parents=True, exist_ok=True)
    emulated = None
    if connection["deploy_mode"] == "cluster" and connection["master"].startswith("local"):
        # A local master has no cluster mode: the driver runs here, in a working directory that
        # holds --files' files, as YARN's container would.
        command = [("client" if arg == "cluster" and command[i - 1] == "--deploy-mode" else arg) for i, arg in enumerate(command)]
        files = command[command.index("--files") + 1].split(",") if "--files" in command else []
        for file in files:
            (cwd / Path(file).name).write_bytes(Path(file).read_bytes())
        emulated = "cluster mode run in client mode from a working directory holding --files"
    process = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=cwd)
    return {"exit_code": process.returncode, "log": process.stdout, "emulated": emulated}


def run_python(task, context, replace):
    arguments = rendered_arguments(task, context, replace)
    function = arguments["python_callable"]
    parameters = inspect.signature(function).parameters
    takes_context = any(p.kind == p.VAR_KEYWORD for p in parameters.values())
    kwargs = dict(arguments.get("op_kwargs") or {})
    if takes_context:
        kwargs.update(context)
    try:
        return {"op_kwargs": arguments.get("op_kwargs"), "result": function(*(arguments.get("op_args") or []), **kwargs)}
    except Exception as e:  # the task fails: Airflow logs it and marks it failed
        return {"op_kwargs": arguments.get("op_kwargs"), "error": f"{type(e).__name__}: {e}"}


def main(spec_file, result_file):
    spec = json.loads(Path(spec_file).read_text())
    install_airflow(spec["layout"])
    module_spec = importlib.util.spec_from_file_location("dag_under_test", spec["dag"])
    module_spec.loader.exec_module(importlib.util.module_from_spec(module_spec))
    (dag,) = DAGS
    context = dict(spec["context"])
    replace = spec["replace"]
    results = {}

    submits = [t for t in dag.tasks if isinstance(t, SparkSubmitOperator)]
    commands = {}
    for task in submits:
        run_callbacks(task, context, replace)
        arguments = rendered_arguments(task, context, replace)
        connection = resolve_connection(arguments, spec["connections"])
        commands[task.task_id] = (spark_submit_command(arguments, connection), connection)
        results[task.task_id] = {"command": commands[task.task_id][0]}
    if spec["submit"]:
        # The copies have no dependency on each other: Airflow runs them at the same time too.
        with ThreadPoolExecutor(len(submits)) as pool:
            runs = {t.task_id: pool.submit(run_spark_submit, t, *commands[t.task_id], spec["work_dir"]) for t in submits}
        for task_id, run in runs.items():
            results[task_id].update(run.result())
    for task in dag.tasks:
        if isinstance(task, PythonOperator):
            upstream = [t.task_id for t in dag.tasks if task in t.downstream]
            results[task.task_id] = {"upstream": upstream, **run_python(task, context, replace)}
    Path(result_file).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main(*sys.argv[1:])

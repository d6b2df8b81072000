"""Cold start: importing the REST handler versus importing boto3 and powertools' resolver alone.

Each sample is a fresh interpreter; the time is taken inside it with perf_counter around the
imports, so interpreter start-up is excluded. Handler: functions/rest/app.py imported by
file path — what a Lambda's init runs (boto3, powertools, the routes and the composition
root with its lazy DynamoDB client; the request models, the client and the dictionary come
on first use). Then, in the same interpreter, what a first Harftet move adds on top: the
DynamoDB client, the request models (pydantic) built, and the dictionary. Baseline:
``import boto3; from aws_lambda_powertools.event_handler import APIGatewayRestResolver``,
and that plus ``boto3.client("dynamodb")``. They alternate; the goal is
median(import) / median(baseline) ≤ 1.25. Everything runs as in Lambda: ``python -S`` with
the layer's packages and a compiled copy of our code, nothing from the dev venv, LIMITS on
as the template deploys it.

Run: ``.venv/bin/python -m bench.bench_cold_start``.
"""

from __future__ import annotations

import argparse
import compileall
import functools
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from bench import ROOT, Result, median
from bench.bench_move_path import HANDLER_PATH, handler_env

GOAL = 1.25
RUNS = 9
# No endpoint is contacted at import; this one would refuse the connection if it were.
UNUSED_ENDPOINT = "http://127.0.0.1:9"

HANDLER_CODE = f"""
import time
t0 = time.perf_counter()
import importlib.util, sys
spec = importlib.util.spec_from_file_location("harftet_rest_app", {str(HANDLER_PATH)!r})
module = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = module
spec.loader.exec_module(module)
t1 = time.perf_counter()
import harftet.bootstrap, harftet.words
eager = {{
    "client": harftet.bootstrap.dynamodb().created,
    "models": "harftet.api.models" in sys.modules,
    "dictionary": harftet.engine.words.default_words.cache_info().currsize > 0,
}}
harftet.bootstrap.dynamodb().real()
t2 = time.perf_counter()
from harftet.api import models
for model in (models.CreatePlayer, models.CreateTable, models.SitDown, models.MoveRequest):
    model.model_rebuild()
t3 = time.perf_counter()
words = harftet.engine.words.default_words()
t4 = time.perf_counter()
import json
ms = lambda a, b: (b - a) * 1e3
times = {{"import": ms(t0, t1), "client": ms(t1, t2), "models": ms(t2, t3), "words": ms(t3, t4)}}
print(json.dumps({{**times, "eager": eager, "n": len(words)}}))
"""

BASELINE_CODE = """
import time
t0 = time.perf_counter()
import boto3
from aws_lambda_powertools.event_handler import APIGatewayRestResolver
t1 = time.perf_counter()
import json
print(json.dumps({"import": (t1 - t0) * 1e3, "words": 0.0}))
"""

# The smallest handler that can reach DynamoDB also makes its client: the same baseline plus
# ``boto3.client("dynamodb")`` (about 0.7× of the baseline above, all of it botocore loading
# the service model), which the handler cannot avoid on its first request.
BASELINE_CLIENT_CODE = """
import time
t0 = time.perf_counter()
import boto3
from aws_lambda_powertools.event_handler import APIGatewayRestResolver
boto3.client("dynamodb")
t1 = time.perf_counter()
import json
print(json.dumps({"import": (t1 - t0) * 1e3, "words": 0.0}))
"""

# Run once before timing: the handler must import with every outbound connection refused
# (no SSM, no DynamoDB call at import). It also leaves the .pyc files written.
NO_NETWORK_CHECK = """
import socket
def refuse(*args, **kwargs):
    raise RuntimeError(f"network call at import: {args}")
socket.socket.connect = refuse
socket.socket.connect_ex = refuse
socket.create_connection = refuse
"""


LAYER_REQUIREMENTS = ROOT / "shared" / "requirements.txt"
LAYER_DIR = ROOT / ".cache" / "bench-layer"


def layer_packages() -> Path:
    """The layer's packages (shared/requirements.txt) installed for this machine, as
    ``sam build`` installs them for Lambda: what the handler imports in production, without
    the dev environment's extras (moto, cryptography, pydantic plugins...). Reinstalled when
    the requirements change."""
    stamp = LAYER_DIR / ".requirements"
    wanted = LAYER_REQUIREMENTS.read_text(encoding="utf-8")
    if not stamp.exists() or stamp.read_text(encoding="utf-8") != wanted:
        shutil.rmtree(LAYER_DIR, ignore_errors=True)
        subprocess.run(
            [
                *(sys.executable, "-m", "pip", "install", "-q", "--disable-pip-version-check"),
                *("--target", str(LAYER_DIR), "-r", str(LAYER_REQUIREMENTS)),
            ],
            check=True,
            capture_output=True,
        )
        stamp.write_text(wanted, encoding="utf-8")
    return LAYER_DIR


@functools.cache
def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AWS_", "POWERTOOLS_"))}
    env.update(handler_env(UNUSED_ENDPOINT))
    env.pop("TOKEN_SECRET_PARAM", None)
    env["LIMITS"] = "on"  # the template's default: the limits share the service's client
    # Like the Lambda runtime: the layer's packages and our code, both with the bytecode the
    # layer ships (shared/Makefile), and nothing else; a Lambda writes no bytecode either.
    env["PYTHONPATH"] = os.pathsep.join((str(layer_packages()), str(code_copy())))
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def code_copy() -> Path:
    """shared/ compiled afresh, as the layer ships it (no stale bytecode from elsewhere)."""
    target = ROOT / ".cache" / "bench-code"
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(ROOT / "shared", target, ignore=shutil.ignore_patterns("__pycache__"))
    compileall.compile_dir(target, quiet=1, workers=0)
    return target


def sample(code: str) -> Any:
    """One fresh interpreter (-S: no site-packages but the layer's) running ``code``; the JSON
    value it prints last."""
    done = subprocess.run(
        [sys.executable, "-S", "-c", code],
        cwd=ROOT,
        env=_env(),
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"cold-start sample failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def measure(runs: int = RUNS) -> tuple[dict[str, list[float]], dict[str, Any]]:
    """Alternating handler/baseline samples (ms), after one untimed no-network check of each;
    and what the check run saw (what the import loaded eagerly, the dictionary's size)."""
    checked = sample(NO_NETWORK_CHECK + HANDLER_CODE)
    sample(BASELINE_CODE)
    parts = ("import", "client", "models", "words")
    samples: dict[str, list[float]] = {
        "first_move": [],
        **{part: [] for part in parts},
        "baseline": [],
        "baseline_client": [],
    }
    kinds = ("handler", "baseline", "baseline_client")
    for i in range(runs):
        for kind in kinds[i % 3 :] + kinds[: i % 3]:
            if kind == "handler":
                s = sample(HANDLER_CODE)
                samples["first_move"].append(sum(s[part] for part in parts))
                for part in parts:
                    samples[part].append(s[part])
            elif kind == "baseline":
                samples["baseline"].append(sample(BASELINE_CODE)["import"])
            else:
                samples["baseline_client"].append(sample(BASELINE_CLIENT_CODE)["import"])
    return samples, checked


def run(runs: int = RUNS) -> list[Result]:
    """The RESULTS.md rows: the handler import (the goal), and the import plus what a first
    Harftet move loads, against the baseline that also builds a DynamoDB client."""
    s, checked = measure(runs)
    eager = [name for name, loaded in checked["eager"].items() if loaded]
    base = "import boto3 + APIGatewayRestResolver"
    base_detail = f"min {min(s['baseline']):.0f} ms; n={len(s['baseline'])}"
    return [
        Result(
            name="cold start: REST handler import",
            value=median(s["import"]),
            unit="ms",
            detail=(
                f"what Lambda's init runs; loaded at import: {', '.join(eager) or 'none'} of "
                f"client, models, dictionary; min {min(s['import']):.0f} ms; n={len(s['import'])}"
            ),
            baseline_name=base,
            baseline=median(s["baseline"]),
            baseline_detail=base_detail,
            goal=GOAL,
        ),
        Result(
            name="cold start: REST handler import + what a first Harftet move loads",
            value=median(s["first_move"]),
            unit="ms",
            detail=(
                f"import {median(s['import']):.0f} + DynamoDB client {median(s['client']):.0f}"
                f" + request models {median(s['models']):.0f} + dictionary "
                f"{median(s['words']):.0f} ms ({checked['n']} words); "
                f"min {min(s['first_move']):.0f} ms; n={len(s['first_move'])}"
            ),
            baseline_name=base + ' + boto3.client("dynamodb")',
            baseline=median(s["baseline_client"]),
            baseline_detail=(
                f"min {min(s['baseline_client']):.0f} ms; n={len(s['baseline_client'])}"
            ),
        ),
    ]


# -- diagnosis: where the handler's import time goes ------------------------------------------
BREAKDOWN_CODE = f"""
import time
marks = [("start", time.perf_counter())]
def mark(name):
    marks.append((name, time.perf_counter()))
import boto3
mark("import boto3")
from aws_lambda_powertools.event_handler import APIGatewayRestResolver
mark("powertools APIGatewayRestResolver (baseline ends here)")
from aws_lambda_powertools import Logger, Metrics
Logger(); Metrics()
mark("powertools Logger() + Metrics()")
import harftet.bootstrap
if harftet.bootstrap.settings().tracing:
    from aws_lambda_powertools import Tracer
    Tracer()
mark("powertools Tracer() if tracing is on (it imports aws_xray_sdk)")
import jwt
mark("import jwt (PyJWT; imports cryptography when installed)")
import harftet.engine.table, harftet.engine.view, harftet.engine.search
mark("harftet.engine (state, moves, rules, table, view)")
import harftet.rest, harftet.api.errors
mark("harftet.rest (the routes, the composition root, identity) and the API error map")
import importlib.util, sys
spec = importlib.util.spec_from_file_location("harftet_rest_app", {str(HANDLER_PATH)!r})
module = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = module
spec.loader.exec_module(module)
mark("functions/rest/app.py itself (compiled from source; the routes included)")
harftet.bootstrap.dynamodb().real()
harftet.bootstrap.app().tables
mark("first table access: boto3.client('dynamodb'), the tables' use cases built")
from harftet.api import models
mark("first body: import pydantic + harftet.api.models")
for model in (models.CreatePlayer, models.CreateTable, models.SitDown, models.MoveRequest):
    model.model_rebuild()
mark("first body: the request models' validators built")
import harftet.engine.words
harftet.engine.words.default_words()
mark("first Harftet rule: harftet.engine.words.default_words()")
from harftet.engine.words.index import for_words
for_words(harftet.engine.words.default_words())
mark("first Harftet hint or bot: the word index")
import json
print(json.dumps([(b[0], (b[1] - a[1]) * 1e3) for a, b in zip(marks, marks[1:])]))
"""


def breakdown(runs: int = RUNS) -> list[tuple[str, float]]:
    """Median ms of each step of the handler's imports, taken in order in one interpreter."""
    sample(NO_NETWORK_CHECK + BREAKDOWN_CODE)
    rows: list[list[tuple[str, float]]] = [sample(BREAKDOWN_CODE) for _ in range(runs)]
    return [(name, median([r[i][1] for r in rows])) for i, (name, _) in enumerate(rows[0])]


def main() -> None:
    """Print the rows (or, with --breakdown, the cost of each import step)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=RUNS)
    parser.add_argument("--breakdown", action="store_true", help="time each import step")
    args = parser.parse_args()
    if args.breakdown:
        steps = breakdown(args.runs)
        for name, ms in steps:
            print(f"{ms:8.1f} ms  {name}")
        at_import = sum(ms for name, ms in steps if not name.startswith("first "))
        print(f"{at_import:8.1f} ms  at import (medians of {args.runs} runs)")
        print(f"{sum(ms for _, ms in steps):8.1f} ms  with every first use")
        return
    for r in run(args.runs):
        ratio = f"{r.ratio:.2f}×" if r.ratio is not None else "-"
        print(f"{r.name}: {r.value:.0f} ms ({r.detail})")
        print(f"  baseline {r.baseline_name}: {r.baseline:.0f} ms ({r.baseline_detail}) → {ratio}")


if __name__ == "__main__":
    main()

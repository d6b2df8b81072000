"""The REST handler's import (a Lambda cold start) holds only what every request needs; the
rest comes on first use, or all at once from ``prime`` (what SnapStart runs before its snapshot).

One fresh interpreter (about a second): the import state of this test process is not a cold one.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

PROBE = f"""
import gc, importlib.util, json, socket, sys, types

def refuse(*args, **kwargs):
    raise RuntimeError(f"network call: {{args}}")
socket.socket.connect = refuse

spec = importlib.util.spec_from_file_location("rest_app", {str(ROOT / "functions/rest/app.py")!r})
app = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = app
gc.collect()  # nothing pending: what a pass now finds is what the import left to it
before = {{"enabled": gc.isenabled(), "frozen": gc.get_freeze_count()}}
spec.loader.exec_module(app)
collector = {{"enabled": gc.isenabled(), "frozen": gc.get_freeze_count() - before["frozen"],
              "tracked": len(gc.get_objects())}}

import harftet.bootstrap, harftet.words

def loaded():
    return {{
        "pydantic": "pydantic" in sys.modules,
        "client": harftet.bootstrap.dynamodb().created,
        "dictionary": harftet.engine.words.default_words.cache_info().currsize > 0,
    }}

at_import = loaded()
context = types.SimpleNamespace(
    function_name="rest", function_version="1", memory_limit_in_mb=512, aws_request_id="r",
    invoked_function_arn="arn:aws:lambda:eu-central-1:123456789012:function:rest",
)
with open({str(ROOT / "events/rest/health.json")!r}) as event:
    health = app.handler(json.load(event), context)
after_health = loaded()
app.prime()
print(json.dumps({{"import": at_import, "health": [health["statusCode"], after_health],
                   "primed": loaded(), "collector": collector}}))
"""


@functools.cache
def _probe() -> dict[str, Any]:
    """What PROBE saw, in one fresh interpreter (shared by the tests of this file)."""
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("AWS_", "POWERTOOLS_", "LIMIT"))
    }
    env.update(
        PYTHONPATH=str(ROOT / "shared"),
        TABLES_TABLE="t",
        PLAYERS_TABLE="p",
        CONNECTIONS_TABLE="c",
        LIMITS="on",  # as deployed: the limits share the one lazy client
        TOKEN_SECRET="cold-start-test-secret-0123456789abcdef",
        AWS_DEFAULT_REGION="eu-central-1",
        AWS_ACCESS_KEY_ID="test",
        AWS_SECRET_ACCESS_KEY="test",
        AWS_EC2_METADATA_DISABLED="true",
        POWERTOOLS_TRACE_DISABLED="true",
        POWERTOOLS_METRICS_NAMESPACE="Harftet",
    )
    done = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    seen: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return seen


def test_the_import_defers_models_client_and_dictionary_and_prime_loads_them_offline() -> None:
    seen = _probe()
    nothing = {"pydantic": False, "client": False, "dictionary": False}
    assert seen["import"] == nothing
    assert seen["health"] == [200, nothing]  # a request that needs none of them loads none
    assert seen["primed"] == {"pydantic": True, "client": True, "dictionary": True}


def test_the_import_runs_without_collection_passes_and_leaves_its_objects_frozen() -> None:
    """The cyclic collector is paused while the handler imports (each pass would walk all of
    boto3's and our modules built so far: about 60 ms of the init) and is running again when
    the import ends, with what the import built frozen out of a request's passes."""
    seen = _probe()
    collector = seen["collector"]
    assert collector["enabled"] is True  # requests are collected as usual
    # frozen: everything the import built (tens of thousands of objects), not a handful
    assert collector["frozen"] > 10_000, collector
    assert collector["tracked"] < collector["frozen"] // 10, collector

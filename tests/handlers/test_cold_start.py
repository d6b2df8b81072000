"""The REST handler's import (a Lambda cold start) holds only what every request needs; the
rest comes on first use, or all at once from ``prime`` (what SnapStart runs before its snapshot).

One fresh interpreter (about a second): the import state of this test process is not a cold one.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = f"""
import importlib.util, json, socket, sys, types

def refuse(*args, **kwargs):
    raise RuntimeError(f"network call: {{args}}")
socket.socket.connect = refuse

spec = importlib.util.spec_from_file_location("rest_app", {str(ROOT / "functions/rest/app.py")!r})
app = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = app
spec.loader.exec_module(app)

import harftet.wiring, harftet.words

def loaded():
    return {{
        "pydantic": "pydantic" in sys.modules,
        "client": harftet.wiring.dynamodb().created,
        "dictionary": harftet.words.default_words.cache_info().currsize > 0,
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
                   "primed": loaded()}}))
"""


def test_the_import_defers_models_client_and_dictionary_and_prime_loads_them_offline() -> None:
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
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    nothing = {"pydantic": False, "client": False, "dictionary": False}
    assert seen["import"] == nothing
    assert seen["health"] == [200, nothing]  # a request that needs none of them loads none
    assert seen["primed"] == {"pydantic": True, "client": True, "dictionary": True}

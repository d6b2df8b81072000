"""`sam local invoke` and `sam local start-api` against the tables of a running `make run`.

SAM CLI runs each function in a Docker container with the environment variables template.yaml
declares for it, and only those; `--env-vars FILE` gives them values. `events/env.local.json`
is that file, generated here from the local stack's own settings:

    python -m harftet.localstack.sam_local > events/env.local.json

(tests/test_contracts_sam_local.py keeps the committed copy current). From inside a container
the stack is at ``host.docker.internal``: its REST and Management API on PORT (3000), its
DynamoDB, which also serves SSM, on PORT + 1. The stack stores its token signing secret in that
SSM under the template's TokenSecretParameterName, so a function run by SAM reads the secret
the way it does in AWS and accepts the tokens `make run` hands out.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from harftet.localstack.environment import dynamodb_port, handler_env

DOCKER_HOST = "host.docker.internal"
DEFAULT_PORT = 3000
LOCAL_HOST = "127.0.0.1"
REGION = "us-east-1"  # the stack's tables live in this region of moto: `sam local --region`
SECRET_PARAMETER = "TokenSecretParameterName"
_SWEEP_ONCE = "0"  # `sam local invoke SweeperFunction`: one sweep, as in the stack's loop


def _functions(template: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Logical id → the environment variables template.yaml gives that function."""
    globals_ = template.get("Globals", {}).get("Function", {})
    common = globals_.get("Environment", {}).get("Variables", {})
    functions: dict[str, dict[str, Any]] = {}
    for logical_id, resource in template["Resources"].items():
        if resource.get("Type") != "AWS::Serverless::Function":
            continue
        own = resource.get("Properties", {}).get("Environment", {}).get("Variables", {})
        functions[logical_id] = {**common, **own}
    return functions


def secret_parameter_name(template: Mapping[str, Any]) -> str:
    """The SSM parameter the functions read the signing secret from (the template's default)."""
    return str(template["Parameters"][SECRET_PARAMETER]["Default"])


def _in_container(value: str) -> str:
    """A URL of the stack as a container reaches it."""
    return value.replace(f"//{LOCAL_HOST}:", f"//{DOCKER_HOST}:")


def env_vars(
    template_path: str | os.PathLike[str] | None = None, port: int = DEFAULT_PORT
) -> dict[str, dict[str, str]]:
    """The `--env-vars` file for a stack on ``port``: every function's every variable."""
    from unittest import mock

    from harftet.engine.codec import FORMAT
    from harftet.localstack.dynamo import DEFAULT_TABLE_NAMES
    from harftet.store.schema import load_template

    template = load_template(template_path)
    dynamodb = f"http://{LOCAL_HOST}:{dynamodb_port(port)}"
    with mock.patch.dict(os.environ, clear=True):  # the defaults, not this shell's settings
        stack = handler_env(
            port=port, dynamodb_endpoint=dynamodb, tables=DEFAULT_TABLE_NAMES, overrides={}
        )
    known = {
        "AWS_ENDPOINT_URL_SQS": dynamodb,  # moto serves DynamoDB, SSM and SQS on one port
        **stack,
        "AWS_ENDPOINT_URL_SSM": dynamodb,
        "TOKEN_SECRET_PARAM": secret_parameter_name(template),
        "SWEEP_WINDOW_SECONDS": _SWEEP_ONCE,
        "MATCH_WINDOW_SECONDS": _SWEEP_ONCE,  # `sam local invoke MatcherFunction`: one pass
        "MATCH_EVERY_SECONDS": "2",  # the template's
        # Notifications under `sam local`: moto's SNS, no Web Push key, no mobile apps.
        "AWS_ENDPOINT_URL_SNS": dynamodb,
        "VAPID_PUBLIC_KEY": "",
        "VAPID_PRIVATE_KEY_PARAM": "",
        "FCM_APPLICATION_ARN": "",
        "APNS_APPLICATION_ARN": "",
        "CELL_ID": stack.get("CELL_ID", ""),  # a stand-alone stack, not a cell (docs/SCALE.md)
        "DEADLINE_SHARDS": stack.get("DEADLINE_SHARDS", "32"),  # the template's default
        "DEADLINE_STEP_SECONDS": stack.get("DEADLINE_STEP_SECONDS", "60"),  # the template's
        "TABLE_WRITE_FORMAT": stack.get("TABLE_WRITE_FORMAT", str(FORMAT)),  # the codec's own
        "TIMERS_LEAN": stack.get("TIMERS_LEAN", "true"),  # the template's default
        "LOG_ITEM_PER_CHANGE": stack.get("LOG_ITEM_PER_CHANGE", "true"),  # the template's
        "ANSWER_WRITE_FORMAT": stack.get("ANSWER_WRITE_FORMAT", "2"),  # the template's default
        "TOKEN_KEYS_PARAM": "",  # no key ring locally: the one secret signs (as `make run`)
        "NEW_VERSION": "",  # the pre-traffic hooks': given by CodeDeploy's deploy only
        "REST_FUNCTION": "",  # the WebSocket hook's REST alias: given by a deploy only
        "REST_URL": f"http://{LOCAL_HOST}:{port}",  # the synthetic game plays `make run`
        "WS_URL": f"ws://{LOCAL_HOST}:{port}/ws",
    }
    result: dict[str, dict[str, str]] = {}
    for logical_id, variables in _functions(template).items():
        unknown = sorted(set(variables) - set(known))
        if unknown:
            raise KeyError(
                f"{logical_id} declares {unknown}: give them local values in handler_env "
                "(localstack/environment.py) or in localstack/sam_local.py"
            )
        result[logical_id] = {name: _in_container(known[name]) for name in sorted(variables)}
    return result


def local_ssm(endpoint: str) -> Any:
    """A client of the stack's SSM (moto at ``endpoint``)."""
    import boto3

    return boto3.client(
        "ssm",
        endpoint_url=endpoint,
        region_name=REGION,
        aws_access_key_id="local",
        aws_secret_access_key="local",
    )


def share_token_secret(
    endpoint: str, secret: str, template_path: Path | None = None, *, wait: bool = True
) -> None:
    """Store ``secret`` in the stack's SSM (moto at ``endpoint``) under the template's name.

    moto's SSM loads AWS's public parameters on first use (seconds): with ``wait=False`` that
    happens in a background thread, so the stack is ready without waiting for it.
    """

    def share() -> None:
        from harftet.store.schema import load_template

        name = secret_parameter_name(load_template(template_path))
        local_ssm(endpoint).put_parameter(
            Name=name, Value=secret, Type="SecureString", Overwrite=True
        )

    if wait:
        share()
    else:
        threading.Thread(target=share, name="share-token-secret", daemon=True).start()


def main() -> None:
    """Print the env-vars file for the default port (or $PORT)."""
    port = int(os.environ.get("PORT", DEFAULT_PORT))
    print(json.dumps(env_vars(port=port), indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()

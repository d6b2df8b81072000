"""Imported once by the forkserver that forks the execution environments (see runtime.py).

Everything in MODULES is third-party and reads no environment, so a worker forked afterwards
gets it for free and its cold start is left with the handler's own code. Our own modules are
added (through $HARFTET_LOCAL_PRELOAD) only by a stack whose process already carries the
handlers' environment, since they may read it at import time.
"""

from __future__ import annotations

import contextlib
import importlib
import os

MODULES = [
    "boto3",
    "boto3.dynamodb.conditions",
    "boto3.dynamodb.types",
    "botocore.session",
    "aws_lambda_powertools",
    "aws_lambda_powertools.event_handler",
    "aws_lambda_powertools.logging",
    "aws_lambda_powertools.metrics",
    "aws_lambda_powertools.tracing",
    "aws_lambda_powertools.utilities.typing",
    "aws_xray_sdk.core",  # powertools' Tracer imports it even when tracing is disabled
    "pydantic",
    "pydantic.main",
    "pydantic.fields",
    "pydantic.functional_validators",
    "jwt",
]
# Service models the handlers' clients load; botocore caches them in the default session.
SERVICES = ["dynamodb", "apigatewaymanagementapi", "ssm", "xray"]


def warm() -> None:
    """Import the heavy libraries and load botocore's data files into the default session."""
    extra = [name for name in os.environ.get("HARFTET_LOCAL_PRELOAD", "").split(",") if name]
    for name in MODULES + extra:
        with contextlib.suppress(Exception):
            importlib.import_module(name)
    with contextlib.suppress(Exception):
        import boto3

        # No client is made here, so nothing about credentials, region or endpoints is
        # resolved yet: each worker does that from its own environment.
        boto3.setup_default_session()
        session = boto3.DEFAULT_SESSION._session  # type: ignore[union-attr]
        session.get_component("endpoint_resolver")
        for service in SERVICES:
            session.get_service_model(service)


warm()

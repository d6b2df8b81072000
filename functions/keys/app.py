"""Scheduled key rotation (docs/DEPLOY.md "Signing keys"): a new token signing key signs from
now on, the one that signed until now still verifies, the one before retires. Nobody is
signed out: the schedule's period is at least a token's lifetime (harftet.identity)."""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.typing import LambdaContext
from botocore.exceptions import ClientError

from harftet.bootstrap import app
from harftet.identity import parse_keys, rotated

logger = Logger()


@logger.inject_lambda_context
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    current = app()
    name = current.settings.token_keys_param
    if not name:
        raise RuntimeError("set TOKEN_KEYS_PARAM")
    ssm = current.aws("ssm")
    try:
        text = ssm.get_parameter(Name=name, WithDecryption=True)["Parameter"]["Value"]
    except ClientError as error:
        if error.response["Error"]["Code"] != "ParameterNotFound":
            raise
        text = None  # the first rotation: the ring starts
    ring = rotated(text, current.clock())
    ssm.put_parameter(Name=name, Value=ring, Type="SecureString", Overwrite=True)
    kids = [k.kid for k in parse_keys(ring)]
    logger.info("signing keys rotated", extra={"kids": kids})
    return {"kids": kids}

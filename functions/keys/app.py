"""Scheduled key rotation (docs/DEPLOY.md "Signing keys"): a new token signing key, which signs
once every function's cached ring holds it (harftet.identity.sign_lead); the keys before still
verify until every token they signed has expired, then retire. Nobody is signed out.
``{"retire": "<kid>"}`` also drops that key at once (a leaked key: its tokens stop)."""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext
from botocore.exceptions import ClientError

from harftet.bootstrap import app
from harftet.identity import parse_keys, rotated, sign_lead
from harftet.observability import new_logger

logger = new_logger()


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
    s = current.settings
    retire = event.get("retire") if isinstance(event, dict) else None
    ring = rotated(
        text, current.clock(), lead=sign_lead(s.token_keys_seconds), life=s.token_keys_life,
        retire=str(retire) if retire else None,
    )  # fmt: skip
    ssm.put_parameter(Name=name, Value=ring, Type="SecureString", Overwrite=True)
    kids = [k.kid for k in parse_keys(ring)]
    logger.info("signing keys rotated", extra={"kids": kids})
    return {"kids": kids}

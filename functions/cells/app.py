"""The cell registers itself with the router (docs/DEPLOY.md "The router"): a CloudFormation
custom resource of each cell's stack (``CellRegistration``). On create and update it writes the
cell's item — its URLs, capacity and whether it is open — into the router's cells table in the
router's account, through the registrar role that account grants (assumed with the session
tagged by this cell's account: the role writes only items keyed by that account). On delete it
removes the item. The router reads the table (harftet.router.CellDirectory).

A cell is registered only once its REST API answers (``GET <RestUrl>/health`` 200, waited for
up to PROBE_SECONDS): the template orders the registration after both API stages, and this
covers what it cannot name (SAM's per-route invoke permissions, the function's alias)."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from typing import Any

import boto3
from aws_lambda_powertools.utilities.typing import LambdaContext

from harftet.observability import new_logger
from harftet.router import Cell, deregister_cell, register_cell

logger = new_logger()
PROBE_SECONDS = 240.0  # how long a create or update waits for the cell's API (Timeout: 300)
PROBE_EVERY = 5.0


def answers(rest_url: str) -> None:
    """Return once ``GET <rest_url>/health`` answers 200; TimeoutError after PROBE_SECONDS."""
    deadline = time.monotonic() + PROBE_SECONDS
    url = rest_url.rstrip("/") + "/health"
    while True:
        try:
            with urllib.request.urlopen(url, timeout=10) as answer:  # the cell's own API
                if answer.status == 200:
                    return
                last = f"HTTP {answer.status}"
        except urllib.error.HTTPError as error:
            last = f"HTTP {error.code}"
        except OSError as error:  # not resolvable or not listening yet
            last = str(error)
        if time.monotonic() + PROBE_EVERY > deadline:
            raise TimeoutError(f"{url} did not answer 200 in {PROBE_SECONDS:.0f} s ({last})")
        time.sleep(PROBE_EVERY)


def cells_table(properties: dict[str, Any], account: str) -> Any:
    """The router's cells table (a boto3 Table) with the registrar role's credentials, its
    session tagged with this cell's account: both from the router's ARNs."""
    table_arn = str(properties["CellsTableArn"])  # arn:aws:dynamodb:REGION:ACCOUNT:table/NAME
    region, name = table_arn.split(":")[3], table_arn.split("/", 1)[1]
    session = boto3.client("sts").assume_role(
        RoleArn=str(properties["RegistrarRoleArn"]),
        RoleSessionName=f"harftet-cell-{properties['CellId']}",
        Tags=[{"Key": "account", "Value": account}],
    )["Credentials"]
    dynamodb = boto3.resource(
        "dynamodb",
        region_name=region,
        aws_access_key_id=session["AccessKeyId"],
        aws_secret_access_key=session["SecretAccessKey"],
        aws_session_token=session["SessionToken"],
    )
    return dynamodb.Table(name)


def apply(event: dict[str, Any], now: float) -> str:
    """Register or deregister the cell; the physical id (``<account>/<cellId>``)."""
    properties = event["ResourceProperties"]
    _, _, _, region, account = str(event["ServiceToken"]).split(":")[:5]
    cell = Cell(
        str(properties["CellId"]),
        str(properties["RestUrl"]),
        str(properties["WebSocketUrl"]),
        float(properties.get("Capacity", 1)),
        str(properties.get("Open", "true")).lower() == "true",
    )
    table = cells_table(properties, account)
    if event["RequestType"] == "Delete":
        deregister_cell(table, cell.cell_id, account)
    else:
        answers(cell.rest_url)  # never routed before its API answers
        register_cell(table, cell, account, region, now)
        old = event.get("OldResourceProperties") or {}
        if old.get("CellId") not in (None, cell.cell_id):  # renamed: the old id goes
            deregister_cell(table, str(old["CellId"]), account)
    return f"{account}/{cell.cell_id}"


def respond(event: dict[str, Any], status: str, physical: str, reason: str = "") -> None:
    """Tell CloudFormation (the pre-signed URL of the event) how it went."""
    body = json.dumps(
        {
            "Status": status,
            "Reason": reason[:500] or status,
            "PhysicalResourceId": physical,
            "StackId": event["StackId"],
            "RequestId": event["RequestId"],
            "LogicalResourceId": event["LogicalResourceId"],
        }
    ).encode()
    request = urllib.request.Request(
        event["ResponseURL"], data=body, method="PUT", headers={"content-type": ""}
    )
    with urllib.request.urlopen(request, timeout=30) as answer:  # CloudFormation's pre-signed URL
        answer.read()


@logger.inject_lambda_context
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    physical = str(event.get("PhysicalResourceId") or event["LogicalResourceId"])
    try:
        physical = apply(event, time.time())
        status, reason = "SUCCESS", ""
    except Exception as error:
        logger.exception("cell registration failed", extra={"type": event.get("RequestType")})
        # A failed delete must not hold the stack's deletion: the router's operator removes
        # the item by hand (docs/DEPLOY.md); a failed create or update rolls the deploy back.
        status = "SUCCESS" if event["RequestType"] == "Delete" else "FAILED"
        reason = f"{type(error).__name__}: {error}"
    respond(event, status, physical, reason)
    return {"status": status, "physicalResourceId": physical}

"""DynamoDB saying "try again later": answered 503 ``busy`` (safe to retry), never a 500."""

from __future__ import annotations

from botocore.exceptions import (
    ClientError,
    ConnectionClosedError,
    ConnectTimeoutError,
    EndpointConnectionError,
    ReadTimeoutError,
)

from harftet.errors import BusyError

# DynamoDB's answers that mean "try again later" (after botocore's own retries): 503 busy.
TRANSIENT = {
    "ProvisionedThroughputExceededException",
    "ThrottlingException",
    "RequestLimitExceeded",
    "TransactionConflictException",
    "TransactionInProgressException",
    "InternalServerError",
    "ServiceUnavailable",
}
# Botocore's own retries spent on answers that never came: as busy (the writes are
# idempotent — a move by its moveId, a transaction by its token — so a retry is safe).
BOTO_CONNECTION_ERRORS = (
    ReadTimeoutError,
    ConnectTimeoutError,
    ConnectionClosedError,
    EndpointConnectionError,
)
# A transaction DynamoDB cancelled for one of these reasons may simply be sent again later.
TRANSIENT_REASONS = {"ThrottlingError", "ProvisionedThroughputExceeded", "TransactionConflict"}


def is_transient(error: BaseException) -> bool:
    """Whether ``error`` is DynamoDB saying "try again later" (503 busy, never a 500): after
    botocore's own retries, or a transaction cancelled by throttling or a conflict."""
    if isinstance(error, BOTO_CONNECTION_ERRORS):  # every attempt's answer was lost
        return True
    if not isinstance(error, ClientError):
        return False
    code = error.response.get("Error", {}).get("Code")
    if code == "TransactionCanceledException":
        reasons = error.response.get("CancellationReasons") or []
        return any(r.get("Code") in TRANSIENT_REASONS for r in reasons)
    return code in TRANSIENT


def busy(error: ClientError) -> Exception:
    """``error`` as the refusal a client sees: BusyError (503, safe to retry) when DynamoDB
    said "try again later", else itself (a bug or an outage: 500)."""
    if is_transient(error):
        return BusyError("the table is too busy right now: try again")
    return error

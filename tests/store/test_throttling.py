"""Throttling on the move path (botocore's retries, configured in harftet.bootstrap's
DYNAMODB_CONFIG), over in-process moto: a throttled write is retried by the SDK and stored
once; throttling that outlasts the retries is 503 busy and stores nothing."""

from __future__ import annotations

import pytest
from service_helpers import full_table, turn_player
from testkit import aws_session

from harftet.engine.moves import Draw


@pytest.fixture
def throttled(app, monkeypatch):
    """The service's table writes through a client configured as deployed, whose next
    ``left`` UpdateItem calls DynamoDB answers with ThrottlingException (botocore's hooks)."""
    import json

    from botocore.awsrequest import AWSResponse
    from moto.core.botocore_stubber import MockRawResponse

    from harftet.bootstrap import DYNAMODB_CONFIG

    client = aws_session().client("dynamodb", config=DYNAMODB_CONFIG)
    state = {"left": 0, "answered": 0}

    def throttle(request, **_):
        target = request.headers.get("X-Amz-Target") or b""
        if state["left"] <= 0 or not target.endswith(b".UpdateItem"):
            return None
        state["left"] -= 1
        state["answered"] += 1
        body = {"__type": "com.amazonaws.dynamodb.v20120810#ThrottlingException", "message": "slow"}
        raw = MockRawResponse(json.dumps(body).encode())
        url, request.url = request.url, "http://throttled.invalid/"  # so moto leaves it alone
        return AWSResponse(url, 400, {"x-amzn-ErrorType": "ThrottlingException"}, raw)

    # Every before-send handler runs (the first answer wins): ours goes first.
    client.meta.events.register_first("before-send", throttle)
    monkeypatch.setattr(app.stores.tables, "_client", client)
    return state


def test_a_throttled_write_is_retried_by_the_sdk_and_the_move_is_stored_once(app, throttled):
    table_id, callers = full_table(app, seats=2)
    mover, view = turn_player(app, table_id, callers)
    throttled["left"] = 2
    moved = app.tables.move(mover, table_id, view["version"], "d", Draw())
    assert throttled["answered"] == 2 and moved["version"] == view["version"] + 1
    assert app.tables.view(mover, table_id)["version"] == view["version"] + 1


def test_throttling_that_outlasts_the_retries_is_busy_and_stores_nothing(app, throttled):
    from harftet.errors import BusyError

    table_id, callers = full_table(app, seats=2)
    mover, view = turn_player(app, table_id, callers)
    throttled["left"] = 4  # DYNAMODB_CONFIG: 4 attempts in all
    with pytest.raises(BusyError):
        app.tables.move(mover, table_id, view["version"], "d", Draw())
    assert throttled["answered"] == 4
    assert app.tables.view(mover, table_id) == view  # nothing stored: safe to send again
    assert (
        app.tables.move(mover, table_id, view["version"], "d", Draw())["version"]
        == view["version"] + 1
    )

"""The fan-out (functions/fanout/app.py) fed the tables table's stream as Lambda hands it on:
every stored version pushed to each connection as its own player's view, whoever stored it."""

from __future__ import annotations

import copy
import json

import pytest
from testkit import LambdaContext

from harftet.fanout import changes_from_stream

pytestmark = pytest.mark.filterwarnings("ignore:No application metrics to publish")
FANOUT = "harftet-FanoutFunction-1A2B3C4D"


def connect(ws, player, table_id, connection_id):
    return ws("connect", token=player.token, tableId=table_id, connectionId=connection_id)


def test_records_of_other_tables_deletions_and_old_images_publish_nothing(api, apps, outbox):
    """`sam local generate-event dynamodb update`: an INSERT, a MODIFY and a REMOVE of an
    item that is not a table — nothing to publish, nothing fails."""
    event = api.event("fanout/sam-dynamodb-update")
    assert changes_from_stream(event) == []
    assert apps.fanout.handler(event, _context()) == {"batchItemFailures": []}
    assert outbox.sent == []


def _context():
    return LambdaContext(FANOUT)


def test_a_stream_batch_is_published_at_each_tables_newest_version_only(
    api, ws, apps, outbox, stream, monkeypatch
):
    game = api.game()
    for i, player in enumerate(game.players):
        connect(ws, player, game.table_id, f"c{i}")
    outbox.sent.clear()
    monkeypatch.setattr(api, "after", None)  # hold the stream back: one batch of three
    for n in range(3):
        mover, view = api.turn(game)
        reply = api.move("move-draw", mover, game, view, f"d{n}")
        assert reply.status == 200
    [event] = stream.events()
    assert [r["eventName"] for r in event["Records"]] == ["MODIFY"] * 3
    assert all(isinstance(r["dynamodb"]["NewImage"]["state"]["B"], str) for r in event["Records"])
    assert apps.fanout.handler(copy.deepcopy(event), _context()) == {"batchItemFailures": []}
    for i, player in enumerate(game.players):
        [pushed] = outbox.to(f"c{i}")
        assert pushed == {"type": "table", "view": api.view(player, game.table_id)}
    # Lambda may hand a batch on again (a retry): the same newest version, never an older one.
    apps.fanout.handler(copy.deepcopy(event), _context())
    versions = {p["view"]["version"] for _, p in outbox.sent}
    assert versions == {view["version"] + 1}


def test_a_table_whose_connections_cannot_be_read_is_retried_and_the_others_published(
    api, ws, apps, outbox, stream, app, monkeypatch
):
    first, second = api.game(), api.game()
    connect(ws, first.players[0], first.table_id, "first")
    connect(ws, second.players[0], second.table_id, "second")
    outbox.sent.clear()
    monkeypatch.setattr(api, "after", None)
    for game in (first, second):
        mover, view = api.turn(game)
        api.move("move-draw", mover, game, view, "d")
    [event] = stream.events()
    real = app.stores.connections.for_table

    def throttled(table_id):
        if table_id == first.table_id:
            raise RuntimeError("ProvisionedThroughputExceededException")
        return real(table_id)

    monkeypatch.setattr(app.stores.connections, "for_table", throttled)
    answer = apps.fanout.handler(event, _context())
    first_record = next(
        r for r in event["Records"] if r["dynamodb"]["Keys"]["tableId"]["S"] == first.table_id
    )
    assert answer == {
        "batchItemFailures": [{"itemIdentifier": first_record["dynamodb"]["SequenceNumber"]}]
    }
    assert [c for c, _ in outbox.sent] == ["second"]


def test_the_pushed_view_holds_no_secret(api, ws, outbox):
    game = api.game()
    connect(ws, game.players[1], game.table_id, "c1")
    mover, view = api.turn(game)
    api.move("move-draw", mover, game, view, "d")
    for _, payload in outbox.sent:
        assert str(api.SEED) not in json.dumps(payload) and "seed" not in json.dumps(payload)

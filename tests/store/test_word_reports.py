"""Word reports (`harftet.words.reports`) as DynamoDB keeps them, over in-process moto: no
player id in the players table, and nothing at all for a refused report (tests/service holds
the counts and the budget over the in-memory stores)."""

from __future__ import annotations

from typing import Any

import pytest
from testkit import TABLE_NAMES, Clock

from harftet.words.reports import WordReports


@pytest.fixture
def reports(app: Any) -> WordReports:
    return app.word_reports


def _items(dynamodb: Any) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for name in (TABLE_NAMES["PlayersTable"], TABLE_NAMES["ConnectionsTable"]):
        items += dynamodb.scan(TableName=name, ConsistentRead=True)["Items"]
    return items


def test_reports_keep_no_player_id(reports: WordReports, dynamodb: Any, clock: Clock) -> None:
    reports.report("player-secret-id", "kitap", "wrong")
    # Only the hour's budget counter (connections table, gone after the hour) names the player.
    kept = dynamodb.scan(TableName=TABLE_NAMES["PlayersTable"], ConsistentRead=True)["Items"]
    assert len(kept) == 2 and "player-secret-id" not in repr(kept)


@pytest.mark.parametrize(
    ("word", "kind"), [("kitap", "nonsense"), ("kit4p", "wrong"), ("", "missing")]
)
def test_bad_reports_store_nothing(
    reports: WordReports, dynamodb: Any, clock: Clock, word: str, kind: str
) -> None:
    before = _items(dynamodb)
    with pytest.raises(ValueError):
        reports.report("p1", word, kind)
    assert _items(dynamodb) == before

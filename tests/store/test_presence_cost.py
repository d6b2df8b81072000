"""What a friends' presence costs in DynamoDB, over in-process moto: a player coming online
reads their friends' sockets in one BatchGetItem per hundred friends, never a Query or a Scan
(tests/service holds the presence's behaviour, over the in-memory stores)."""

from __future__ import annotations

from typing import Any

import pytest
from service_helpers import player

from harftet.friends import Friends


@pytest.fixture
def people(app: Any) -> Friends:
    app.forgetting.wait = 0  # no stream consumer here: the log is not waited for
    return app.friends


def friends(people: Friends, one: Any, two: Any) -> None:
    people.request(one, people.friends(two)["code"])
    people.accept(two, one.player_id)


def befriend_many(people: Friends, one: Any, others: list[Any]) -> None:
    """``one`` and each of ``others`` become friends: the first pair by a request and its
    acceptance, the rest written as that pair's were (the whole flow costs ~30 emulated calls
    a pair, 20 s for a hundred); the first pair checks that the shape is the flow's."""
    first, *rest = others
    friends(people, one, first)
    store = people.store
    assert store.account(one.player_id)["friends"] == {first.player_id: {"name": first.name}}
    assert store.account(first.player_id)["friends"] == {one.player_id: {"name": one.name}}
    added = {o.player_id: {"name": o.name} for o in rest}
    store.change(one.player_id, lambda a: {"friends": {**a["friends"], **added}})
    theirs = {"friends": {one.player_id: {"name": one.name}}}
    for other in rest:
        store.change(other.player_id, lambda a: theirs)


def test_many_friends_cost_one_batch_read_per_hundred(app, people, outbox, monkeypatch):
    ayse = player(app, "Ayşe")
    others = [player(app, f"Dost{i}") for i in range(101)]
    befriend_many(people, ayse, others)
    assert len(people.friends(ayse)["friends"]) == 101
    for i, other in enumerate(others[:3]):
        app.presence.open(other, f"dost-{i}")
    calls: list[str] = []
    client = app.stores.connections._client
    for op in ("query", "scan", "batch_get_item"):
        real = getattr(client, op)
        monkeypatch.setattr(
            client, op, lambda *a, _op=op, _real=real, **k: calls.append(_op) or _real(*a, **k)
        )
    outbox.sent.clear()
    app.presence.open(ayse, "ayse-lobby")
    assert calls == ["batch_get_item", "batch_get_item"]  # 101 friends: two batches, no query
    assert sorted(c for c, p in outbox.sent if p["type"] == "presence") == [
        "dost-0",
        "dost-1",
        "dost-2",
    ]

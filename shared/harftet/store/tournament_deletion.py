"""A deleted player in the tournaments she entered (API.md v4 "Deleted players": nothing
the player owned remains, finished games keep the anonymous seat): her id is replaced by an
anonymous one in the tournament's entries, round plans and her tables' results, each item
read by its key (never a scan), so the others' standings, ranks and podium stay as they
were and nothing names her any more."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .items import serialize
from .tournaments import plan_key, result_key, shard_key

if TYPE_CHECKING:
    from .tournaments import TournamentStore


def _key(key: str) -> dict[str, Any]:
    return {"playerId": {"S": key}}


def anonymise(
    store: TournamentStore, tid: str, player_id: str, anon: str, entry: dict[str, Any],
    rounds: int,
) -> None:  # fmt: skip
    """Her entry becomes ``entry`` under ``anon`` (one transaction), and ``anon`` takes her
    place in rounds 1..``rounds``' plans and in her tables' results. Idempotent: what no
    longer names her is left alone."""
    old, new = shard_key(tid, player_id), shard_key(tid, anon)
    names = {"#old": "e#" + player_id, "#new": "e#" + anon}
    value = serialize({":e": entry})
    if old == new:
        store._update(
            Key=_key(old), UpdateExpression="REMOVE #old SET #new = :e",
            ConditionExpression="attribute_exists(#old)", ExpressionAttributeNames=names,
            ExpressionAttributeValues=value,
        )  # fmt: skip
    else:
        store._transact([
            {"Key": _key(old), "UpdateExpression": "REMOVE #old",
             "ConditionExpression": "attribute_exists(#old)",
             "ExpressionAttributeNames": {"#old": names["#old"]}},
            {"Key": _key(new), "UpdateExpression": "SET #new = :e",
             "ExpressionAttributeNames": {"#new": names["#new"]},
             "ExpressionAttributeValues": value},
        ])  # fmt: skip
    for r, plan in store.plans(tid, rounds).items():
        at = [i for i, people in enumerate(plan["tables"]) if player_id in people]
        for i in at:
            found = store._get(result_key(tid, r, i))
            if found is not None:
                _rename(store, result_key(tid, r, i), found, ("players", "left"), player_id, anon)
        if at:
            _rename(store, plan_key(tid, r), plan, ("tables",), player_id, anon)


def _rename(
    store: TournamentStore, key: str, item: dict[str, Any], fields: tuple[str, ...], old: str,
    new: str,
) -> None:  # fmt: skip
    """``fields`` of the item at ``key`` (lists of ids, or lists of lists) with ``old``
    replaced by ``new``."""
    values = {f":{f}": swapped(item.get(f) or [], old, new) for f in fields}
    store._update(
        Key=_key(key),
        UpdateExpression="SET " + ", ".join(f"#{f} = :{f}" for f in fields),
        ConditionExpression="attribute_exists(playerId)",
        ExpressionAttributeNames={f"#{f}": f for f in fields},
        ExpressionAttributeValues=serialize(values),
    )


def swapped(value: Any, old: str, new: str) -> Any:
    """``value`` (an id, or lists of them) with ``old`` replaced by ``new``."""
    if isinstance(value, list | tuple):
        return [swapped(v, old, new) for v in value]
    return new if value == old else value

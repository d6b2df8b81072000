"""What a table's write changes beside the table, in the game's words: a player's rating and
record, their profile and leaderboard entries, the correspondence tables they hold.

The write path (`harftet.tables.writer`) decides these from a change's outcome and hands them
to `TableStore.save`, which stores them in the same transaction as the table: all of them,
or none. Each knows the players-table Update that stores it (`to_update`); a feature never
builds one itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from boto3.dynamodb.types import TypeSerializer

from harftet.engine.effects import RatingChange

from .holdings import hold, release
from .items import serialize
from .leagues import LeagueWrite, league_update
from .players import player_update
from .profiles import board_key, profile_key, shard_of
from .tournaments import ResultWrite, result_update

_ser = TypeSerializer()


@dataclass(frozen=True, slots=True)
class RatingWrite:
    """A rating change (a finished game's points, or a leaver's penalty); a leave also counts
    an abandon against the player's abandons as ``player`` was read (None: not read)."""

    change: RatingChange
    player: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class ProfileWrite:
    """A profile rewritten whole (``fields``: every attribute but the key; ``remove``: old
    attributes to drop), only if its counter ``n`` is still ``read_n`` (None: no profile)."""

    player_id: str
    read_n: int | None
    fields: dict[str, Any]
    remove: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class BoardWrite:
    """``delta`` points added to the player's entry on the ``game``/``period`` board (``expires``:
    when a weekly board's entry goes, epoch seconds)."""

    game: str
    period: str
    player_id: str
    name: str
    delta: int
    expires: int | None = None


@dataclass(frozen=True, slots=True)
class HoldWrite:
    """The player starts holding a running correspondence table (refused at ``limit``)."""

    player_id: str
    table_id: str
    limit: int


@dataclass(frozen=True, slots=True)
class ReleaseWrite:
    """The player stops holding a correspondence table."""

    player_id: str
    table_id: str


@dataclass(frozen=True, slots=True)
class SkillWrite:
    """The player's skill map (attribute ``skill``: game → {"mu", "sigma", "games"}) with
    ``game``'s rating replaced by ``rating`` (its stored shape), only if the map is still
    ``read`` (None: the player had none): a concurrent game's end makes the save lose, and
    it is redone from a fresh read."""

    player_id: str
    game: str
    read: dict[str, Any] | None
    rating: dict[str, Any]


PlayerWrite = (
    RatingWrite
    | ProfileWrite
    | BoardWrite
    | HoldWrite
    | ReleaseWrite
    | SkillWrite
    | LeagueWrite
    | ResultWrite
)


@dataclass(frozen=True, slots=True)
class Commit:
    """What a table's save carries beside the table: the move it applies (``move_id``, kept
    so that a retry is known), the players' writes in the same transaction (ratings,
    profiles, boards, held tables), when (None: now), and the connection that sent the move
    and is answered by its sender (``answered``, kept for this version only)."""

    move_id: str | None = None
    writes: Sequence[PlayerWrite] = ()
    now: float | None = None
    answered: str | None = None


NO_COMMIT = Commit()  # a save that applies no move and writes nothing beside the table


def to_update(write: PlayerWrite, now: float) -> dict[str, Any]:
    """The players-table Update (without ``TableName``) that stores ``write``."""
    if isinstance(write, RatingWrite):
        return player_update(write.change, write.player, now)
    if isinstance(write, HoldWrite):
        return hold(write.player_id, write.table_id, write.limit)
    if isinstance(write, ReleaseWrite):
        return release(write.player_id, write.table_id)
    if isinstance(write, ProfileWrite):
        return _profile_update(write)
    if isinstance(write, SkillWrite):
        return _skill_update(write)
    if isinstance(write, LeagueWrite):
        return league_update(write)
    if isinstance(write, ResultWrite):
        return result_update(write)
    return _board_update(write)


def _skill_update(write: SkillWrite) -> dict[str, Any]:
    skills = {**(write.read or {}), write.game: write.rating}
    values: dict[str, Any] = {":skill": _ser.serialize(_decimals(skills))}
    if write.read is None:
        condition = "attribute_not_exists(#skill)"
    else:
        condition = "#skill = :skillRead"
        values[":skillRead"] = _ser.serialize(_decimals(write.read))
    return {
        "Key": {"playerId": {"S": write.player_id}},
        "UpdateExpression": "SET #skill = :skill",
        "ConditionExpression": condition,
        "ExpressionAttributeNames": {"#skill": "skill"},
        "ExpressionAttributeValues": values,
    }


def _decimals(value: Any) -> Any:
    """``value`` with every float a Decimal (DynamoDB's numbers)."""
    if isinstance(value, float):
        return Decimal(str(value))
    if isinstance(value, dict):
        return {k: _decimals(v) for k, v in value.items()}
    return value


def _profile_update(write: ProfileWrite) -> dict[str, Any]:
    names: dict[str, str] = {}
    values: dict[str, Any] = {}
    sets = []
    for i, (key, value) in enumerate(write.fields.items()):
        names[f"#f{i}"] = key
        values[f":f{i}"] = _ser.serialize(value)
        sets.append(f"#f{i} = :f{i}")
    expression = "SET " + ", ".join(sets)
    if write.remove:
        names.update({f"#r{i}": key for i, key in enumerate(write.remove)})
        expression += " REMOVE " + ", ".join(f"#r{i}" for i in range(len(write.remove)))
    update: dict[str, Any] = {
        "Key": {"playerId": {"S": profile_key(write.player_id)}},
        "UpdateExpression": expression,
        "ExpressionAttributeNames": names,
    }
    if write.read_n is None:
        update["ConditionExpression"] = "attribute_not_exists(playerId)"
    else:
        names["#n"] = "n"
        values[":read"] = _ser.serialize(write.read_n)
        update["ConditionExpression"] = "#n = :read"
    update["ExpressionAttributeValues"] = values
    return update


def _board_update(write: BoardWrite) -> dict[str, Any]:
    values: dict[str, Any] = {
        ":d": write.delta,
        ":b": f"{write.game}#{write.period}#{shard_of(write.player_id)}",
        ":p": write.player_id,
        ":name": write.name,
    }
    expression = "ADD score :d SET board = :b, pid = :p, #name = :name"
    if write.expires is not None:
        values[":exp"] = write.expires
        expression += ", expiresAt = :exp"
    return {
        "Key": {"playerId": {"S": board_key(write.game, write.period, write.player_id)}},
        "UpdateExpression": expression,
        "ExpressionAttributeNames": {"#name": "name"},
        "ExpressionAttributeValues": serialize(values),
    }

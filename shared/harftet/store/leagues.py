"""Weekly leagues (RULES §8): items in the players table under keys no player id can be, each
read by a GetItem on a key designed for it (never a Scan, never an index):

- ``lgp#<game>#<playerId>``: the player's place: ``tier`` and ``division`` of ``week`` (the
  last week they played, ``"2026-W49"``), once that week is rolled over ``next`` (the
  tier earned for the weeks after it), and ``seen``: the keys of every division they were
  ever in (a string set), for their export and their deletion to find each one.
- ``lgd#<game>#<week>#<division>``: a division (``division`` = ``<tier>-<n>``): its ``tier``,
  its members ``m`` (player id → ``{"name", "pts", "g", "at"}``: league points, games, last
  game's end), ``v`` (a counter every change adds to) and ``rolled`` once rolled over. At
  most 30 members: one item, read whole by one strongly consistent GetItem (≤ 4 KB: 1 RCU).
- ``lga#<game>#<week>#<tier>``: the tier's divisions that week: ``open`` (the last one made,
  numbered from 1) and ``size`` (its members): the roll-over reads divisions 1..open.
- ``lgr#<game>#<week>``: the roll-over of that week done (``done``), read first by every run.

A game's end writes the place, the division and the tier's count in the table's own
transaction (`PlaceWrite`, `MemberWrite`, `OpenWrite`, each conditional on what was read);
the roll-over writes each member's ``next`` (conditional on their ``week``), then marks the
division rolled (conditional on ``v`` as read), then the week done.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from botocore.exceptions import ClientError

from .items import deserialize, serialize

DIVISION_TTL = 53 * 7 * 24 * 3600  # a division stays readable a year after its week
PLACE_FIELDS = ("week", "tier", "division", "next")  # a place as its player's export shows it


def place_key(game: str, player_id: str) -> str:
    return f"lgp#{game}#{player_id}"


def division_key(game: str, week: str, division: str) -> str:
    return f"lgd#{game}#{week}#{division}"


def open_key(game: str, week: str, tier: str) -> str:
    return f"lga#{game}#{week}#{tier}"


def done_key(game: str, week: str) -> str:
    return f"lgr#{game}#{week}"


@dataclass(frozen=True, slots=True)
class PlaceWrite:
    """The player's place becomes ``tier``/``division`` of ``week``, only if the place's week
    is still ``read_week`` (None: no place yet)."""

    game: str
    player_id: str
    week: str
    tier: str
    division: str
    read_week: str | None


@dataclass(frozen=True, slots=True)
class Member:
    """One member's change in a division: ``points`` and one game more, at ``at``; ``new``:
    they join it."""

    player_id: str
    name: str
    points: int
    at: int
    new: bool


@dataclass(frozen=True, slots=True)
class MemberWrite:
    """A division's changes at one game's end (every member of it at that table at once);
    ``create``: the division is new. Refused once the division is rolled over."""

    game: str
    week: str
    division: str
    tier: str
    members: tuple[Member, ...]
    create: bool
    expires: int = 0


@dataclass(frozen=True, slots=True)
class OpenWrite:
    """The tier's count that week becomes ``open``/``size``, if it is still ``read``."""

    game: str
    week: str
    tier: str
    open: int
    size: int
    read: tuple[int, int] | None = field(default=None)


LeagueWrite = PlaceWrite | MemberWrite | OpenWrite


def league_update(write: LeagueWrite) -> dict[str, Any]:
    """The players-table Update (without ``TableName``) that stores ``write``."""
    if isinstance(write, PlaceWrite):
        return _place(write)
    if isinstance(write, OpenWrite):
        return _open(write)
    return _members(write)


def _key(key: str) -> dict[str, Any]:
    return {"playerId": {"S": key}}


def _place(write: PlaceWrite) -> dict[str, Any]:
    values: dict[str, Any] = {
        ":lw": write.week,
        ":lt": write.tier,
        ":ld": write.division,
        ":seen": {division_key(write.game, write.week, write.division)},
    }
    if write.read_week is None:
        condition = "attribute_not_exists(playerId)"
    else:
        condition = "#lw = :lrw"
        values[":lrw"] = write.read_week
    return {
        "Key": _key(place_key(write.game, write.player_id)),
        "UpdateExpression": "SET #lw = :lw, #lt = :lt, #ld = :ld REMOVE #ln ADD #seen :seen",
        "ConditionExpression": condition,
        "ExpressionAttributeNames": {
            "#lw": "week",
            "#lt": "tier",
            "#ld": "division",
            "#ln": "next",
            "#seen": "seen",
        },
        "ExpressionAttributeValues": serialize(values),
    }


def _open(write: OpenWrite) -> dict[str, Any]:
    values: dict[str, Any] = {":o": write.open, ":s": write.size}
    if write.read is None:
        condition = "attribute_not_exists(playerId)"
    else:
        condition = "#o = :ro AND #s = :rs"
        values |= {":ro": write.read[0], ":rs": write.read[1]}
    return {
        "Key": _key(open_key(write.game, write.week, write.tier)),
        "UpdateExpression": "SET #o = :o, #s = :s",
        "ConditionExpression": condition,
        "ExpressionAttributeNames": {"#o": "open", "#s": "size"},
        "ExpressionAttributeValues": serialize(values),
    }


def _entry(member: Member) -> dict[str, Any]:
    return {"name": member.name, "pts": member.points, "g": 1, "at": member.at}


def _members(write: MemberWrite) -> dict[str, Any]:
    names: dict[str, str] = {"#m": "m", "#v": "v"}
    values: dict[str, Any] = {":one": 1}
    if write.create:
        values |= {
            ":m": {m.player_id: _entry(m) for m in write.members},
            ":tier": write.tier,
            ":exp": write.expires,
        }
        names |= {"#tier": "tier", "#exp": "expiresAt"}
        return {
            "Key": _key(division_key(write.game, write.week, write.division)),
            "UpdateExpression": "SET #m = :m, #tier = :tier, #exp = :exp ADD #v :one",
            "ConditionExpression": "attribute_not_exists(playerId)",
            "ExpressionAttributeNames": names,
            "ExpressionAttributeValues": serialize(values),
        }
    names["#r"] = "rolled"
    sets, conditions = [], ["attribute_exists(playerId)", "attribute_not_exists(#r)"]
    for i, member in enumerate(write.members):
        p = f"#p{i}"
        names[p] = member.player_id
        if member.new:
            values[f":e{i}"] = _entry(member)
            sets.append(f"#m.{p} = :e{i}")
            conditions.append(f"attribute_not_exists(#m.{p})")
            continue
        names |= {"#pts": "pts", "#g": "g", "#at": "at", "#name": "name"}
        values |= {f":d{i}": member.points, f":a{i}": member.at, f":n{i}": member.name}
        sets += [
            f"#m.{p}.#pts = #m.{p}.#pts + :d{i}",
            f"#m.{p}.#g = #m.{p}.#g + :one",
            f"#m.{p}.#at = :a{i}",
            f"#m.{p}.#name = :n{i}",
        ]
        conditions.append(f"attribute_exists(#m.{p})")
    return {
        "Key": _key(division_key(write.game, write.week, write.division)),
        "UpdateExpression": f"SET {', '.join(sets)} ADD #v :one",
        "ConditionExpression": " AND ".join(conditions),
        "ExpressionAttributeNames": names,
        "ExpressionAttributeValues": serialize(values),
    }


def seen_divisions(game: str, place: dict[str, Any]) -> list[str]:
    """The keys of the divisions a place records (``seen``, and its week's division for a
    place written before ``seen`` was), in order."""
    seen = {str(k) for k in place.get("seen") or ()}
    seen.add(division_key(game, str(place["week"]), str(place["division"])))
    return sorted(seen)


def plain(value: Any) -> Any:
    """``value`` with DynamoDB's Decimals as ints (league items hold whole numbers only)."""
    if isinstance(value, Decimal):
        return int(value)
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


class LeagueStore:
    """The league items above, over the players table's client and name."""

    def __init__(self, client: Any, table_name: str) -> None:
        self._client = client
        self.name = table_name

    def _get(self, key: str, consistent: bool = True) -> dict[str, Any] | None:
        item = self._client.get_item(
            TableName=self.name, Key=_key(key), ConsistentRead=consistent
        ).get("Item")
        return plain(deserialize(item)) if item else None

    def place(self, game: str, player_id: str) -> dict[str, Any] | None:
        return self._get(place_key(game, player_id))

    def division(self, game: str, week: str, division: str) -> dict[str, Any] | None:
        return self._get(division_key(game, week, division))

    def opened(self, game: str, week: str, tier: str) -> tuple[int, int] | None:
        """(open, size) of the tier's divisions that week; None: none yet."""
        item = self._get(open_key(game, week, tier))
        return (int(item["open"]), int(item["size"])) if item else None

    def divisions(self, game: str, week: str, ids: list[str]) -> list[dict[str, Any]]:
        """The divisions named (BatchGetItem, strongly consistent, 100 at a time), with
        ``division`` set; the ones that do not exist are left out."""
        found: list[dict[str, Any]] = []
        for start in range(0, len(ids), 100):
            keys = [_key(division_key(game, week, d)) for d in ids[start : start + 100]]
            request: dict[str, Any] = {self.name: {"Keys": keys, "ConsistentRead": True}}
            while request:
                response = self._client.batch_get_item(RequestItems=request)
                for raw in response.get("Responses", {}).get(self.name, []):
                    item = plain(deserialize(raw))
                    item["division"] = str(item["playerId"]).rsplit("#", 1)[1]
                    found.append(item)
                request = response.get("UnprocessedKeys") or {}
        return found

    def week_done(self, game: str, week: str) -> bool:
        return self._get(done_key(game, week)) is not None

    # -- a player's own data (export, deletion) ----------------------------------------
    def of_player(self, game: str, player_id: str) -> dict[str, Any] | None:
        """The player's place (``week``, ``tier``, ``division``, ``next``) and their own
        entry of every division they were in (``divisions``: ``week``, ``division`` and the
        entry), others' entries left out; None: they never played a league game of it."""
        place = self.place(game, player_id)
        if place is None:
            return None
        found = []
        for key in seen_divisions(game, place):
            item = self._get(key)
            entry = ((item or {}).get("m") or {}).get(player_id)
            if entry is not None:
                week, division = key.rsplit("#", 2)[1:]
                found.append({"week": week, "division": division, **entry})
        shown: dict[str, Any] = {k: place[k] for k in PLACE_FIELDS if k in place}
        return {**shown, "divisions": found}

    def forget(self, game: str, player_id: str) -> None:
        """The player out of every division they were in, then their place gone: each step
        idempotent (a division already gone, or without them, is left as it is)."""
        place = self.place(game, player_id)
        if place is None:
            return
        for key in seen_divisions(game, place):
            self._conditional(
                Key=_key(key),
                UpdateExpression="REMOVE #m.#p",
                ConditionExpression="attribute_exists(playerId)",  # never make an item
                ExpressionAttributeNames={"#m": "m", "#p": player_id},
            )
        self._client.delete_item(TableName=self.name, Key=_key(place_key(game, player_id)))

    # -- the roll-over's writes --------------------------------------------------------
    def earned(self, game: str, player_id: str, week: str, tier: str) -> bool:
        """The player earned ``tier`` for the weeks after ``week``: written only while their
        place is still that week's (False: they have played a later week already)."""
        return self._conditional(
            Key=_key(place_key(game, player_id)),
            UpdateExpression="SET #n = :n",
            ConditionExpression="#w = :w",
            ExpressionAttributeNames={"#n": "next", "#w": "week"},
            ExpressionAttributeValues=serialize({":n": tier, ":w": week}),
        )

    def mark_rolled(self, game: str, week: str, division: str, read_v: int) -> bool:
        """Mark the division rolled over, if nobody changed it since ``read_v`` was read."""
        return self._conditional(
            Key=_key(division_key(game, week, division)),
            UpdateExpression="SET #r = :t",
            ConditionExpression="#v = :v",
            ExpressionAttributeNames={"#r": "rolled", "#v": "v"},
            ExpressionAttributeValues=serialize({":t": True, ":v": read_v}),
        )

    def mark_done(self, game: str, week: str, at: int) -> None:
        self._client.put_item(
            TableName=self.name, Item=serialize({"playerId": done_key(game, week), "done": at})
        )

    def _conditional(self, **update: Any) -> bool:
        try:
            self._client.update_item(TableName=self.name, **update)
        except ClientError as error:
            if error.response.get("Error", {}).get("Code") == "ConditionalCheckFailedException":
                return False
            raise
        return True

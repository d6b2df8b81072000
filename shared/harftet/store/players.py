"""The players table: name, rating, record (played / abandoned) and leaver bans."""

from __future__ import annotations

from typing import Any

from botocore.exceptions import ClientError

from harftet.engine.effects import RatingChange
from harftet.errors import NotFoundError

from .items import deserialize, serialize

DEFAULT_RATING = 1000
DAY = 24 * 3600
BAN_SECONDS = 2 * 3600
ABANDONS_FOR_BAN = 3


def ban_until(abandons: list[float], now: float) -> float | None:
    """The end of the ban earned by the abandons of the last 24 hours (``now`` included):
    the 3rd bans for 2 hours, each further one doubles the ban."""
    recent = sum(1 for t in abandons if now - t < DAY)
    if recent < ABANDONS_FOR_BAN:
        return None
    return now + BAN_SECONDS * 2 ** (recent - ABANDONS_FOR_BAN)


def player_update(
    change: RatingChange, player: dict[str, Any] | None, now: float
) -> dict[str, Any]:
    """The UpdateItem arguments (without TableName) that apply ``change`` to a player."""
    values: dict[str, Any] = {":d": change.delta, ":one": 1}
    update: dict[str, Any] = {"Key": {"playerId": {"S": change.player_id}}}
    if change.reason == "game":
        expression = "ADD rating :d, gamesPlayed :one"
    else:
        stored = (player or {}).get("abandons")
        previous = [float(t) for t in stored or [] if now - float(t) < DAY]
        abandons = [*previous, now]
        values[":abandons"] = [int(t) for t in abandons]
        expression = "ADD rating :d, gamesAbandoned :one SET abandons = :abandons"
        banned = ban_until(abandons, now)
        if banned is not None:
            values[":ban"] = int(banned)
            expression += ", bannedUntil = :ban"
        # The list was read before this write: if another abandon landed in between, the
        # write fails and is redone from a fresh read, so leaving several tables at once
        # cannot dodge the ban.
        if stored is None:
            update["ConditionExpression"] = "attribute_not_exists(abandons)"
        else:
            update["ConditionExpression"] = "abandons = :read"
            values[":read"] = stored
    return {
        **update,
        "UpdateExpression": expression,
        "ExpressionAttributeValues": serialize(values),
    }


def new_player(player_id: str, name: str, now: float) -> dict[str, Any]:
    """A new player's item: the default rating, no games yet."""
    return {
        "playerId": player_id,
        "name": name,
        "rating": DEFAULT_RATING,
        "gamesPlayed": 0,
        "gamesAbandoned": 0,
        "createdAt": int(now),
    }


class PlayerStore:
    """Guest accounts and their standing."""

    def __init__(self, client: Any, table_name: str) -> None:
        self._client = client
        self._name = table_name

    def create(self, player_id: str, name: str, now: float) -> dict[str, Any]:
        """A new guest account with the default rating."""
        item = new_player(player_id, name, now)
        self._client.put_item(
            TableName=self._name,
            Item=serialize(item),
            ConditionExpression="attribute_not_exists(playerId)",
        )
        return item

    def get(self, player_id: str) -> dict[str, Any]:
        """The player's item as plain values; NotFoundError if unknown."""
        if not 0 < len(player_id) <= 64 or "#" in player_id:  # "#": not a player's key
            raise NotFoundError(f"no player {player_id[:64]}")
        try:
            response = self._client.get_item(
                TableName=self._name, Key={"playerId": {"S": player_id}}, ConsistentRead=True
            )
        except ClientError as error:  # e.g. a malformed key; throttling is not "not found"
            if error.response.get("Error", {}).get("Code") != "ValidationException":
                raise
            raise NotFoundError(f"no player {player_id}") from error
        item = response.get("Item")
        if item is None or "name" not in item:  # no name: a deleted player's leftover counts
            raise NotFoundError(f"no player {player_id}")
        return deserialize(item)

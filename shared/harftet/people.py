"""Profiles, leaderboards, player reports and the operator's actions (API.md v3 "Profiles,
leaderboards", "People"; RULES §3, §5, §7). Storage: `harftet.store.people`.

What a profile or a board shows is public by construction: names, counters, game points and
ratings, and links to replays of *finished* games only (a leave's rating change names no
table: the game is still running, maybe at a private table). No hand, pile or seed is read.
"""

from __future__ import annotations

import base64
import hmac
import json
import secrets
from collections import defaultdict
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from botocore.exceptions import ClientError

from harftet import history
from harftet.engine.effects import Outcome, RatingChange, changed, note
from harftet.engine.state import Table
from harftet.errors import BadRequestError, ForbiddenError, NotFoundError
from harftet.store.people import (
    BASE_RATING,
    GAMES_KEPT,
    RATINGS_KEPT,
    WEEK_TTL,
    PeopleStore,
    week_end,
    week_key,
)

GAMES = ("kastet", "harftet")
PERIODS = ("week", "all")
REPORT_KINDS = ("insult", "cheating", "other")
BOARD_LIMIT = 100  # the top 100 (API.md v3): pages never reach past it
NEIGHBOURS = 2
CLOSED_BY_OPERATOR = "operator"


class BadPeopleRequest(BadRequestError):
    """400 bad_request."""


class OperatorOnlyError(ForbiddenError):
    """An operator route reached without IAM authorisation."""


def _name_in(table: Table, player_id: str) -> str:
    for seat in table.seats:
        for who in (seat.occupant, seat.original):
            if who is not None and who.player_id == player_id:
                return who.name
    return ""


def game_end_updates(
    people: PeopleStore, outcome: Outcome, now: float, read: Callable[[str], Any] | None = None
) -> list[dict[str, Any]]:
    """The transaction Updates that record ``outcome``'s rating changes on profiles and
    boards: per player one profile write (conditional on the profile read) and one or two
    board ADDs. Nothing for a change with no game behind it."""
    table = outcome.table
    by_player: dict[str, list[RatingChange]] = defaultdict(list)
    for change in outcome.effects:
        by_player[change.player_id].append(change)
    points = (table.result or {}).get("points") if table.result else None
    best = max(points) if isinstance(points, list) and points else None
    updates: list[dict[str, Any]] = []
    game = table.game
    week = week_key(now)
    expires = int(week_end(now)) + WEEK_TTL
    for player_id, changes in by_player.items():
        old = (read or (lambda p: people.profile(p, consistent=True)))(player_id)
        entries = history.of_profile(old)
        new = {k: v for k, v in (old or {"n": 0}).items() if k not in history.LEGACY}
        new.pop("playerId", None)
        new["n"] = int(new.get("n", 0)) + 1
        total = week_total = 0
        for change in changes:
            total += change.delta
            if change.reason == "game":
                won = change.delta > 0 and change.delta == best
                week_total += change.delta
                _count(new, game, "played")
                if won:
                    _count(new, game, "won")
                entries.append(history.Entry(int(now), change.delta, game, table.table_id, won))
            else:  # a leave: the game is still running (maybe at a private table): no id
                _count(new, game, "abandoned")
                entries.append(history.Entry(int(now), change.delta, game))
        new["h"] = history.pack(history.trimmed(entries))
        legacy = [k for k in history.LEGACY if k in (old or {})]
        updates.append(people.profile_update(player_id, old, new, remove=legacy))
        name = _name_in(table, player_id)
        updates.append(people.board_update(game, "all", player_id, name, total, None))
        if any(c.reason == "game" for c in changes):
            updates.append(people.board_update(game, week, player_id, name, week_total, expires))
    return updates


def _count(profile: dict[str, Any], game: str, what: str) -> None:
    key = f"{what}_{game}"
    profile[key] = int(profile.get(key, 0)) + 1


def public_profile(player: dict[str, Any], profile: dict[str, Any] | None) -> dict[str, Any]:
    """``GET /players/{id}/profile``: only what anyone may see."""
    profile = profile or {}
    games = {
        game: {
            what: int(profile.get(f"{what}_{game}", 0)) for what in ("played", "won", "abandoned")
        }
        for game in GAMES
    }
    entries = history.of_profile(profile)
    ratings = [
        {"at": e.at, "delta": e.delta, "game": e.game, "tableId": e.table_id or None}
        for e in entries[-RATINGS_KEPT:]
    ]
    recent = [
        {
            "tableId": e.table_id,
            "game": e.game,
            "at": e.at,
            "points": e.delta,
            "won": e.won,
            "replay": f"/tables/{e.table_id}/replay",
        }
        for e in reversed([e for e in entries if e.is_game][-GAMES_KEPT:])
    ]
    return {
        "playerId": str(player["playerId"]),
        "name": str(player["name"]),
        "rating": int(player.get("rating", BASE_RATING)),
        "games": games,
        "ratingChanges": list(reversed(ratings)),
        "recentGames": recent,
    }


def _score(item: dict[str, Any], period: str) -> int:
    score = int(item.get("score", 0))
    return score + BASE_RATING if period == "all" else score


def _entry(item: dict[str, Any], rank: int | None, period: str) -> dict[str, Any]:
    return {
        "rank": rank,
        "playerId": str(item.get("pid", "")),
        "name": str(item.get("name", "")),
        "score": _score(item, period),
    }


class Boards:
    """Leaderboard pages, with cursors signed by ``mac``."""

    def __init__(self, people: PeopleStore, mac: Callable[[bytes], bytes]) -> None:
        self.people = people
        self.mac = mac

    def page(
        self,
        viewer: str | None,
        game: str,
        period: str,
        limit: int,
        cursor: str | None,
        now: float,
    ) -> dict[str, Any]:
        if game not in GAMES:
            raise NotFoundError(f"no leaderboard for game '{game[:16]}'")
        if period not in PERIODS:
            raise BadPeopleRequest(f"period must be one of {', '.join(PERIODS)}")
        if not 1 <= limit <= BOARD_LIMIT:
            raise BadPeopleRequest(f"limit must be between 1 and {BOARD_LIMIT}")
        key = "all" if period == "all" else week_key(now)
        after = self._read_cursor(cursor, game, key) if cursor else None
        start = after[2] if after else 0
        limit = min(limit, BOARD_LIMIT - start)
        items = self.people.top(game, key, limit, after[:2] if after else None) if limit else []
        entries = [_entry(item, start + i + 1, period) for i, item in enumerate(items)]
        next_cursor = None
        if items and len(items) == limit and start + limit < BOARD_LIMIT:
            last = items[-1]
            next_cursor = self._cursor(
                [game, key, int(last["score"]), str(last["pid"]), start + limit]
            )
        me = self._me(viewer, game, key, period) if viewer else None
        return {"entries": entries, "me": me, "cursor": next_cursor}

    def _me(self, viewer: str, game: str, key: str, period: str) -> dict[str, Any] | None:
        mine = self.people.entry(game, key, viewer)
        if mine is None:
            return None
        score = int(mine["score"])
        ahead = self.people.ahead(game, key, score)
        rank = None if ahead is None else ahead + 1
        above, below = self.people.around(game, key, score, NEIGHBOURS)
        me = _entry(mine, rank, period)
        me["above"] = [
            _entry(i, None if rank is None else rank - len(above) + k, period)
            for k, i in enumerate(above)
        ]
        # Below: ranks after an unknown number of ties with me, so not given (null).
        me["below"] = [_entry(i, None, period) for i in below]
        return me

    def _cursor(self, data: list[Any]) -> str:
        raw = json.dumps(data, separators=(",", ":")).encode()
        return f"{_b64(raw)}.{_b64(self.mac(raw)[:16])}"

    def _read_cursor(self, cursor: str, game: str, key: str) -> tuple[int, str, int]:
        bad = BadPeopleRequest("cursor is not one this leaderboard gave out: start again")
        try:
            data_part, mac_part = cursor.split(".")
            raw = _unb64(data_part)
            if not hmac.compare_digest(_unb64(mac_part), self.mac(raw)[:16]):
                raise bad
            g, k, score, pid, start = json.loads(raw)
        except (ValueError, TypeError) as error:
            raise bad from error
        if (g, k) != (game, key) or not isinstance(score, int) or not isinstance(start, int):
            raise bad
        return score, str(pid), start


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    if len(text) > 400:
        raise ValueError("too long")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def day_of(now: float) -> str:
    return datetime.fromtimestamp(now, UTC).date().isoformat()


def new_report(
    people: PeopleStore,
    table: Table,
    version: int,
    reporter: str,
    seat: int,
    kind: str,
    now: float,
) -> dict[str, Any]:
    """Keep a report on ``seat`` of ``table`` at ``version`` for review."""
    if kind not in REPORT_KINDS:
        raise BadPeopleRequest(f"kind must be one of {', '.join(REPORT_KINDS)}")
    if not 0 <= seat < len(table.seats):
        raise BadPeopleRequest(f"seat must be between 0 and {len(table.seats) - 1}")
    chair = table.seats[seat]
    reported = chair.occupant or chair.original
    if reported is None or reported.bot:
        raise BadPeopleRequest(f"seat {seat} holds no player to report")
    if reported.player_id == reporter:
        raise BadPeopleRequest("you cannot report yourself")
    report_id = f"{int(now)}-{secrets.token_hex(4)}"
    report = {
        "reportId": report_id,
        "tableId": table.table_id,
        "version": version,
        "seat": seat,
        "kind": kind,
        "reported": reported.player_id,
        "reporter": reporter,
        "at": int(now),
    }
    people.add_report(report, f"report#{table.table_id}#{report_id}", day_of(now), int(now))
    return {"reportId": report_id, "tableId": table.table_id, "version": version}


def close(table: Table, now: float) -> Outcome:
    """The operator ends a table: finished, nobody's rating or record changes."""
    new = table.clone()
    new.recent = []
    new.status = "finished"
    note(new, now, "gameEnd", None, closed=CLOSED_BY_OPERATOR)
    return changed(new)


def report_json(item: dict[str, Any]) -> dict[str, Any]:
    keys = ("reportId", "tableId", "version", "seat", "kind", "reported", "reporter", "at")
    return {k: (int(item[k]) if k in ("version", "seat", "at") else item[k]) for k in keys}


def is_missing(error: ClientError) -> bool:
    return error.response.get("Error", {}).get("Code") == "ConditionalCheckFailedException"


class People:
    """The use cases of this module over a `harftet.service.Service`."""

    def __init__(self, service: Any) -> None:
        self.service = service
        self.store: PeopleStore = service.players.people

    def profile(self, player_id: str) -> dict[str, Any]:
        try:
            player = self.service.players.get(player_id)
        except NotFoundError as error:
            raise NotFoundError(f"no player {player_id[:64]}") from error
        return public_profile(player, self.store.profile(player_id))

    def leaderboard(
        self, viewer: str | None, game: str, period: str, limit: int, cursor: str | None
    ) -> dict[str, Any]:
        boards = Boards(self.store, self.service.tokens.mac)
        return boards.page(viewer, game, period, limit, cursor, self.service.clock())

    def report(self, reporter: str, table_id: str, seat: int, kind: str) -> dict[str, Any]:
        stored = self.service.tables.get(table_id)  # 404 for an unknown table
        return new_report(
            self.store, stored.table, stored.version, reporter, seat, kind, self.service.clock()
        )

    # -- the operator (IAM-authorised API, never a player token) ------------------------
    def reports(self, day: str | None, limit: int) -> dict[str, Any]:
        if day is None:
            day = day_of(self.service.clock())
        try:
            datetime.strptime(day, "%Y-%m-%d")
        except ValueError as error:
            raise BadPeopleRequest("day must be a date, YYYY-MM-DD") from error
        if not 1 <= limit <= 100:
            raise BadPeopleRequest("limit must be between 1 and 100")
        return {"day": day, "reports": [report_json(i) for i in self.store.reports(day, limit)]}

    def ban(self, player_id: str, banned: bool) -> dict[str, Any]:
        if not 0 < len(player_id) <= 64 or "#" in player_id:
            raise NotFoundError(f"no player {player_id[:64]}")
        try:
            self.store.set_ban(player_id, banned, self.service.clock())
        except ClientError as error:
            if is_missing(error):
                raise NotFoundError(f"no player {player_id}") from error
            raise
        return {"playerId": player_id, "banned": banned}

    def close_table(self, table_id: str) -> dict[str, Any]:
        written = self.service._write(
            table_id, lambda t, now: close(t, now) if t.status != "finished" else Outcome(t)
        )
        return {"tableId": table_id, "status": written.stored.table.status}

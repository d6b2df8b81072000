"""Tournaments as the API offers them (API.md v4 "Tournaments"): an operator creates one,
players register and unregister before the start, anyone signed in lists and reads them;
the rounds run themselves (``rounds.py``)."""

from __future__ import annotations

import base64
import json
import secrets
from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass
from decimal import Decimal
from typing import Any

from harftet.cursors import CursorError, read, sign
from harftet.engine.options import OptionError, check, check_turn
from harftet.engine.state import Occupant
from harftet.errors import (
    BadRequestError,
    NotFoundError,
    RegistrationClosedError,
    TournamentFullError,
)
from harftet.identity import Caller
from harftet.store.ports import TournamentStorePort
from harftet.texts import LANGUAGES, say

from .ids import ID, new_tournament_id, table_id
from .models import LATEST, TournamentRequest
from .rounds import Rounds
from .schedule import next_round_at, round_at
from .standings import podium, retired, shown, standings

STATUSES = ("registering", "running", "finished")
PAGE = 20
SHOWN = (
    "tournamentId", "name", "game", "seats", "hands", "rounds", "round", "status", "opensAt",
    "startsAt", "entries", "capacity", "turnSeconds", "repeat", "roundMinutes",
)  # fmt: skip
Mac = Callable[[bytes], bytes]
DELETED = "deleted-"  # a deleted player's anonymous id starts so (as at the tables)


def summary(t: dict[str, Any]) -> dict[str, Any]:
    """A tournament as a list shows it (never its secret draw)."""
    found = {k: t.get(k) for k in SHOWN}
    for k in ("opensAt", "startsAt"):
        found[k] = int(float(t.get(k) or t["startsAt"]))
    found["round"] = int(t.get("round") or 0)
    return found


@dataclass(eq=False)
class Tournaments:
    """The use cases. ``occupant(caller)``: the caller about to register (her name and
    rating; refused while banned)."""

    store: TournamentStorePort
    rounds: Rounds
    mac: Mac
    clock: Callable[[], float]
    occupant: Callable[[Caller], Occupant]
    _: KW_ONLY
    test_mode: bool = False

    def create(self, sent: TournamentRequest) -> dict[str, Any]:
        """A new tournament, registering (API: 201)."""
        now = self.clock()
        try:
            hands = check("hands", sent.hands)
            turn = check_turn("live", sent.turnSeconds, test_mode=self.test_mode)
        except OptionError as error:
            field = "hands" if "hands" in str(error) else "turnSeconds"
            raise BadRequestError(str(error), field=field) from error
        opens = int(now) if sent.opensAt is None else sent.opensAt
        earliest = now - 60 if self.test_mode else now
        if sent.startsAt < earliest:
            raise BadRequestError("startsAt must not be in the past", field="startsAt")
        if opens > sent.startsAt:
            raise BadRequestError("opensAt must be before startsAt", field="opensAt")
        _check_round_minutes(sent)
        item = {
            "tournamentId": new_tournament_id(), "name": sent.name, "game": sent.game,
            "seats": sent.seats, "hands": hands, "rounds": sent.rounds, "round": 0,
            "status": "registering", "capacity": sent.capacity, "turnSeconds": turn,
            "opensAt": opens, "startsAt": sent.startsAt, "entries": 0,
            "draw": secrets.token_hex(16), "createdAt": Decimal(str(round(now, 3))),
        }  # fmt: skip
        if sent.repeat is not None:
            item["repeat"] = sent.repeat
        if sent.roundMinutes is not None:
            item["roundMinutes"] = sent.roundMinutes
        self.store.create(item)
        return summary(item)

    def page(self, status: str | None, cursor: str | None) -> dict[str, Any]:
        """Tournaments of ``status`` (default registering), a page at a time."""
        status = status or "registering"
        if status not in STATUSES:
            raise BadRequestError(
                f"status must be one of {', '.join(STATUSES)}, not '{status[:16]}'", field="status"
            )
        after = None
        if cursor:
            try:
                where = read(self.mac, cursor)
            except CursorError as error:
                raise BadRequestError("not a cursor of this list", field="cursor") from error
            if not isinstance(where, dict) or where.get("s") != status:
                raise BadRequestError("not a cursor of this list", field="cursor")
            after = json.loads(base64.b64decode(str(where["k"])))
        items, last = self.store.page(status, PAGE, after)
        found: dict[str, Any] = {"tournaments": [summary(t) for t in items], "cursor": None}
        if last is not None:
            key = base64.b64encode(json.dumps(last, sort_keys=True).encode()).decode()
            found["cursor"] = sign(self.mac, {"s": status, "k": key})
        return found

    def _get(self, tid: str) -> dict[str, Any]:
        t = self.store.get(tid) if ID.fullmatch(tid) else None
        if t is None:
            raise NotFoundError("no such tournament")
        return t

    def view(self, caller: Caller, tid: str) -> dict[str, Any]:
        """The tournament, its standings, its tables so far and the caller's part."""
        t = self._get(tid)
        entrants = self.store.entrants(tid)
        rounds = int(t.get("round") or 0)
        plans = self.store.plans(tid, rounds)
        results = self.rounds.results(t, rounds, plans)
        rows = standings(entrants, results, retired(entrants))
        names = {pid: str(e.get("name") or "") for pid, e in entrants.items()}
        ended = {(r.round, r.index) for r in results}
        tables, mine = [], None
        for r, plan in sorted(plans.items()):
            proofs = plan["proofs"]
            for i, people in enumerate(plan["tables"]):
                tables.append({
                    "round": r, "tableId": table_id(self.rounds.cell, tid, r, i),
                    "status": "finished" if (r, i) in ended else "playing",
                    "dealProof": proofs[i] if i < len(proofs) else None,
                })  # fmt: skip
                if caller.player_id in people and r == rounds:
                    mine = tables[-1]["tableId"]
        badges = [
            {"tournamentId": tid, "name": str(t["name"]), "place": place}
            for _, place in podium(rows)
        ] if t.get("status") == "finished" else []  # fmt: skip
        return {
            **summary(t), "standings": shown(rows, names), "tables": tables, "podium": badges,
            "me": {"registered": caller.player_id in entrants, "tableId": mine},
            "nextRoundAt": next_round_at(t, self.clock()),
        }  # fmt: skip

    def register(self, caller: Caller, tid: str) -> dict[str, Any]:
        """The caller's entry (API: 201; again: the same answer). 409 tournament_full,
        registration_closed."""
        t = self._get(tid)
        who = self.occupant(caller)
        now = self.clock()
        entry = {"name": who.name, "rating": who.rating, "at": int(now)}
        if not self.store.register(tid, caller.player_id, entry, now):
            t = self._get(tid)
            if self.store.entry(tid, caller.player_id) is None:
                self._refuse(t, now)
        t = self._get(tid)
        return {"tournamentId": tid, "playerId": caller.player_id, "entries": int(t["entries"])}

    def _refuse(self, t: dict[str, Any], now: float) -> None:
        opens = float(t.get("opensAt", 0))
        if t.get("status") != "registering" or now >= float(t["startsAt"]) or now < opens:
            raise RegistrationClosedError("registration for this tournament is closed")
        if int(t["entries"]) >= int(t["capacity"]):
            raise TournamentFullError("this tournament is full")
        raise RegistrationClosedError("registration could not be made: try again")

    def unregister(self, caller: Caller, tid: str) -> None:
        """The caller's entry withdrawn before the start (not entered: nothing)."""
        t = self._get(tid)
        now = self.clock()
        if self.store.unregister(tid, caller.player_id, now):
            return
        if self.store.entry(tid, caller.player_id) is None:
            return
        if t.get("status") != "registering" or now >= float(t["startsAt"]):
            raise RegistrationClosedError("the tournament has started: entries are final")
        raise RegistrationClosedError("the entry could not be withdrawn: try again")

    def profile_part(self, player: dict[str, Any]) -> dict[str, Any]:
        """``{"badges": [{"tournamentId", "name", "place"}]}``: the player's podiums."""
        badges = self.store.of_player(str(player["playerId"]))["badges"]
        return {"badges": [
            {"tournamentId": tid, "name": str(b["name"]), "place": int(b["place"])}
            for tid, b in sorted(badges.items())
        ]}  # fmt: skip

    def of_player(self, player_id: str) -> list[dict[str, Any]]:
        """Her export: each tournament she entered, her entry, the tables its rounds seated
        her at and her badge."""
        mine = self.store.of_player(player_id)
        found = []
        for tid in mine["ids"]:
            entry = self.store.entry(tid, player_id)
            badge = mine["badges"].get(tid)
            tables = self._tables_in(tid, player_id)
            found.append({"tournamentId": tid, "entry": entry, "tables": tables, "badge": badge})
        return found

    def tables_of(self, player_id: str) -> list[str]:
        """Every table a tournament's round seated the player at (the rounds' plans name
        each table's people: no note per person is written when a round is seated)."""
        ids = self.store.of_player(player_id)["ids"]
        return [table for tid in ids for table in self._tables_in(tid, player_id)]

    def _tables_in(self, tid: str, player_id: str) -> list[str]:
        t = self.store.get(tid)
        plans = self.store.plans(tid, int(t.get("round") or 0)) if t is not None else {}
        return [
            table_id(self.rounds.cell, tid, r, i)
            for r, plan in sorted(plans.items())
            for i, people in enumerate(plan["tables"])
            if player_id in people
        ]

    def forget(self, player_id: str) -> None:
        """A deleted player (API.md v4 "Deleted players"): an entry before the start is
        withdrawn; in a tournament under way or over she becomes an anonymous entrant
        (``deleted-…``, named as the catalogue's ``player.deleted``) in its entries, plans
        and results, so the others' points, ranks and podium stay as they were — out of
        every round still to come (never seated again, not listed while it runs). Her list
        of tournaments and her badges go."""
        now = self.clock()
        for tid in self.store.of_player(player_id)["ids"]:
            t = self.store.get(tid)
            if t is None:
                continue
            if t.get("status") == "registering" and self.store.unregister(tid, player_id, now):
                continue
            entry = self.store.entry(tid, player_id) or {}
            anon: dict[str, Any] = {
                "name": say("player.deleted", LANGUAGES[0]) or "", "at": entry.get("at", 0),
                "rating": entry.get("rating", 1000),
            }  # fmt: skip
            if t.get("status") != "finished":
                anon["out"] = True
            rounds = int(t["rounds"])  # every plan there may be (a round seated meanwhile)
            self.store.anonymise(tid, player_id, DELETED + secrets.token_hex(8), anon, rounds)
        self.store.forget(player_id)


def _check_round_minutes(sent: TournamentRequest) -> None:
    """``roundMinutes`` only with rounds to space out, and the last round before 2100."""
    if sent.roundMinutes is None:
        return
    if sent.rounds < 2:
        raise BadRequestError(
            "roundMinutes spaces out rounds 2 and later: it needs rounds of at least 2",
            field="roundMinutes",
        )
    last = round_at({"startsAt": sent.startsAt, "roundMinutes": sent.roundMinutes}, sent.rounds)
    if last is not None and last > LATEST:
        raise BadRequestError("the last round would start after 2100", field="roundMinutes")

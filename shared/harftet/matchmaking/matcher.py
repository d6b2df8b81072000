"""The matcher (RULES §8): makes tables of waiting tickets, run by the ticket stream and a
short schedule, any number at once.

A pass finishes what a matcher killed half-way left (tickets claimed for a table that may
not exist yet), then groups each pool (``grouping.py``) and, per group, claims its tickets
(all or none, each only if still waiting: a second matcher or the player's cancel that came
first makes the claim fail and the rest is regrouped next pass), writes the table (a
conditional put under the id the claim chose: made once however many finish it), marks the
tickets matched, frees their players to look again and pushes ``matched``."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable, Iterable
from dataclasses import KW_ONLY, dataclass, replace
from statistics import fmean
from typing import Any

from harftet.engine import proof
from harftet.engine import table as life
from harftet.engine.options import TableOptions
from harftet.engine.seats import bot_occupant
from harftet.engine.state import Occupant, Table
from harftet.errors import NotFoundError
from harftet.rating import Rating, nearest_level
from harftet.store.matchmaking import Plan, Ticket, pool_of
from harftet.store.ports import MatchStorePort, TableStorePort

from .grouping import Group, groups

logger = logging.getLogger(__name__)
POOLS = tuple(pool_of(game, seats) for game in ("harftet", "kastet") for seats in (2, 4))
Push = Callable[[str, dict[str, Any]], object]


@dataclass(eq=False)
class Matcher:
    """``avoid(player_id)``: whom the player blocked or who blocked them, read fresh before
    a group is claimed; ``push(player_id, message)``: to the player's open sockets;
    ``on_seated(player_id, table_id)``: the player's account notes the table."""

    matches: MatchStorePort
    tables: TableStorePort
    clock: Callable[[], float]
    new_table_id: Callable[[], str]
    avoid: Callable[[str], set[str]]
    _: KW_ONLY
    push: Push | None = None
    on_seated: Callable[[str, str], object] | None = None
    test_mode: bool = False

    def run(self, pools: Iterable[str] | None = None) -> int:
        """One pass over ``pools`` (None: every pool); the tables made."""
        made = self.recover()
        for pool in POOLS if pools is None else pools:
            made += self.match(pool)
        return made

    def recover(self) -> int:
        """Seat every claimed group whose table may not exist yet."""
        plans: dict[str, Plan] = {}
        for ticket in self.matches.seating():
            if ticket.plan is not None and ticket.table_id is not None:
                plans.setdefault(ticket.table_id, ticket.plan)
        for plan in plans.values():
            self.seat(plan)
        return len(plans)

    def match(self, pool: str) -> int:
        """Group the pool's waiting tickets and seat each group this matcher claims."""
        made = 0
        for group in self._groups(self.matches.waiting(pool)):
            plan = self.plan(group)
            if self.matches.claim([t.ticket_id for t in group.tickets], plan):
                self.seat(plan)
                made += 1
        return made

    def _groups(self, tickets: list[Ticket]) -> list[Group]:
        """The groups, every pair checked against the players' blocks as they are now."""
        now = self.clock()
        fresh: dict[str, frozenset[str]] = {}
        for _ in range(4):
            current = [
                replace(t, avoid=t.avoid | fresh.get(t.player_id, frozenset())) for t in tickets
            ]
            found = groups(current, now)
            unread = {
                t.player_id
                for g in found
                if len(g.tickets) > 1
                for t in g.tickets
                if t.player_id not in fresh
            }
            if not unread:
                return found
            fresh.update((p, frozenset(self.avoid(p))) for p in unread)
        return [
            g for g in found if len(g.tickets) == 1 or all(t.player_id in fresh for t in g.tickets)
        ]

    def plan(self, group: Group) -> Plan:
        """Who sits where at the group's new table: a person at seat 0 (the manager), the
        others and the computer players at random, of the level whose measured rating in the
        game is nearest the people's mean μ."""
        rng = secrets.SystemRandom()
        people: list[dict[str, Any]] = [
            {"playerId": t.player_id, "name": t.name, "rating": t.rating, "ticketId": t.ticket_id}
            for t in group.tickets
        ]
        rng.shuffle(people)
        first = group.tickets[0]
        level = nearest_level(first.game, Rating(fmean(r.mu for r in group.ratings)))
        rest = people[1:] + [{"bot": level} for _ in range(group.bots)]
        rng.shuffle(rest)
        return {
            "tableId": self.new_table_id(),
            "game": first.game,
            "seats": first.seats,
            "tickets": [t.ticket_id for t in group.tickets],
            "chairs": [people[0], *rest],
        }

    def seat(self, plan: Plan) -> None:
        """Make the plan's table (once), settle its tickets, tell its players."""
        table_id = str(plan["tableId"])
        try:
            self.tables.create(self.build(plan))
        except Exception:
            if not self._exists(table_id):  # not made by another matcher: a real failure
                raise
        for ticket_id in plan["tickets"]:
            self.matches.settle(ticket_id)
        message = {"type": "matched", "tableId": table_id}
        for chair in plan["chairs"]:
            if "bot" in chair:
                continue
            player_id, ticket_id = str(chair["playerId"]), str(chair["ticketId"])
            self.matches.release(player_id, ticket_id)
            self._tell(player_id, table_id, {**message, "ticketId": ticket_id})

    def _tell(self, player_id: str, table_id: str, message: dict[str, Any]) -> None:
        """Note the table and push; neither undoes the seat when it fails."""
        try:
            if self.on_seated is not None:
                self.on_seated(player_id, table_id)
            if self.push is not None:
                self.push(player_id, message)
        except Exception:
            logger.warning("could not tell %s of table %s", player_id, table_id, exc_info=True)

    def _exists(self, table_id: str) -> bool:
        try:
            self.tables.get(table_id)
        except NotFoundError:
            return False
        return True

    def build(self, plan: Plan) -> Table:
        """The plan's table, started: rated, live, every seat taken."""
        now = self.clock()
        chairs = plan["chairs"]
        options = TableOptions(game=plan["game"], seats=int(plan["seats"]), rated=True)
        table = life.new_table(
            str(plan["tableId"]), _person(chairs[0]), options,
            seed=secrets.randbits(63), now=now,
            salt=secrets.token_hex(proof.SALT_BYTES), test_mode=self.test_mode,
        )  # fmt: skip
        events = list(table.recent)
        for seat, chair in enumerate(chairs[1:], 1):
            who = bot_occupant(seat, chair["bot"]) if "bot" in chair else _person(chair)
            outcome = life.sit(table, seat, who, now)
            table, events = outcome.table, events + outcome.events
        outcome = life.start(table, str(table.manager), now, matched=True)
        table = outcome.table
        table.recent = events + outcome.events  # the log gets every sit, then the deal
        return table


def _person(chair: dict[str, Any]) -> Occupant:
    return Occupant(str(chair["playerId"]), str(chair["name"]), rating=int(chair["rating"]))

"""Looking for opponents (API.md v4 "Matchmaking"): open a ticket, read it, cancel it. The
matcher (``matcher.py``) seats the waiting tickets."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass
from typing import Any

from harftet.engine.state import Occupant
from harftet.errors import AlreadyWaitingError, BadRequestError, NotFoundError, WrongStatusError
from harftet.identity import Caller
from harftet.store.matchmaking import Ticket
from harftet.store.ports import MatchStorePort

from .models import WAIT_BOUNDS, WAIT_TEST_FLOOR
from .skill import Skills

DEFAULT_WAIT = 30
ENDED = ("matched", "cancelled")


@dataclass(eq=False)
class Matchmaking:
    """Tickets over the match store. ``occupant(caller)``: the caller about to sit down
    (refused while banned); ``avoid(player_id)``: whom they blocked or who blocked them."""

    matches: MatchStorePort
    skills: Skills
    occupant: Callable[[Caller], Occupant]
    avoid: Callable[[str], set[str]]
    clock: Callable[[], float]
    new_ticket_id: Callable[[], str]
    _: KW_ONLY
    test_mode: bool = False

    def open(self, caller: Caller, game: str, seats: int, wait: int | None) -> dict[str, Any]:
        """A new waiting ticket (409 already_waiting while the caller holds one)."""
        wait = DEFAULT_WAIT if wait is None else wait
        low = WAIT_TEST_FLOOR if self.test_mode else WAIT_BOUNDS[0]
        if not low <= wait <= WAIT_BOUNDS[1]:
            raise BadRequestError(
                f"waitSeconds must be {low}–{WAIT_BOUNDS[1]}, not {wait}", field="waitSeconds"
            )
        who = self.occupant(caller)
        skill = self.skills.of(caller.player_id, game)
        ticket = Ticket(
            ticket_id=self.new_ticket_id(),
            player_id=caller.player_id,
            name=who.name,
            rating=who.rating,
            game=game,
            seats=seats,
            wait_seconds=wait,
            at=round(self.clock(), 3),
            mu=skill.mu,
            sigma=skill.sigma,
            avoid=frozenset(self.avoid(caller.player_id)),
        )
        for _ in range(2):
            held = self.matches.open(ticket)
            if held is None:
                return {"ticketId": ticket.ticket_id, "status": "waiting"}
            old = self.matches.ticket(held)
            if old is not None and old.status not in ENDED:
                break
            self.matches.release(caller.player_id, held)  # a lock its ending left behind
        raise AlreadyWaitingError(
            "you are already looking for opponents: wait for that search or cancel it"
        )

    def _own(self, caller: Caller, ticket_id: str) -> Ticket:
        ticket = self.matches.ticket(ticket_id)
        if ticket is None or ticket.player_id != caller.player_id:
            raise NotFoundError("no such search for opponents")
        return ticket

    def status(self, caller: Caller, ticket_id: str) -> dict[str, Any]:
        """The caller's ticket: waiting (a table being made still counts), matched with its
        table, or cancelled."""
        return answer(self._own(caller, ticket_id))

    def cancel(self, caller: Caller, ticket_id: str) -> None:
        """Stop looking (again: nothing more); 409 wrong_status once the caller was matched."""
        ticket = self._own(caller, ticket_id)
        if ticket.status == "waiting" and self.matches.cancel(ticket_id):
            self.matches.release(caller.player_id, ticket_id)
            return
        now = self.matches.ticket(ticket_id) or ticket
        if now.status == "cancelled":
            return
        raise WrongStatusError("opponents were found already: the table is being set")

    def forget(self, player_id: str) -> None:
        """A deleted player's tickets go (API.md v4: nothing the player owned remains)."""
        self.matches.forget(player_id)


def answer(ticket: Ticket) -> dict[str, Any]:
    """A ticket as the API shows it to its player."""
    if ticket.status == "matched":
        return {"ticketId": ticket.ticket_id, "status": "matched", "tableId": ticket.table_id}
    status = "cancelled" if ticket.status == "cancelled" else "waiting"
    return {"ticketId": ticket.ticket_id, "status": status}

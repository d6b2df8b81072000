"""The match table in memory (``harftet.store.matchmaking``): tickets and players' locks,
each step a conditional change of the status before, a claim all or none."""

from __future__ import annotations

from typing import Any

from harftet.store.matchmaking import (
    LOCK,
    MINE,
    SEATING,
    TICKET,
    Plan,
    Ticket,
    from_item,
    ticket_item,
)

from .values import stored


class FakeMatches:
    """``items`` by key, as the adapter stores them (a test may change them to play a
    writer the app is not)."""

    def __init__(self) -> None:
        self.items: dict[str, dict[str, Any]] = {}

    def open(self, ticket: Ticket) -> str | None:
        key, lock = TICKET + ticket.ticket_id, LOCK + ticket.player_id
        if key in self.items or lock in self.items:
            return self.holder(ticket.player_id) or ticket.ticket_id
        self.items[key] = stored(ticket_item(ticket))
        self.items[lock] = {"id": lock, "ticketId": ticket.ticket_id}
        mine = self.items.setdefault(MINE + ticket.player_id, {"id": MINE + ticket.player_id})
        mine["tickets"] = {*mine.get("tickets", ()), ticket.ticket_id}
        return None

    def forget(self, player_id: str) -> None:
        mine = self.items.pop(MINE + player_id, {})
        for ticket_id in mine.get("tickets", ()):
            self.items.pop(TICKET + ticket_id, None)
        self.items.pop(LOCK + player_id, None)

    def ticket(self, ticket_id: str) -> Ticket | None:
        item = self.items.get(TICKET + ticket_id)
        return from_item(item) if item else None

    def holder(self, player_id: str) -> str | None:
        item = self.items.get(LOCK + player_id)
        return str(item["ticketId"]) if item else None

    def release(self, player_id: str, ticket_id: str) -> None:
        if self.holder(player_id) == ticket_id:
            del self.items[LOCK + player_id]

    def _step(self, ticket_id: str, before: str, status: str) -> bool:
        item = self.items.get(TICKET + ticket_id)
        if item is None or item.get("status") != before:
            return False
        item["status"] = status
        item.pop("queue", None)
        return True

    def cancel(self, ticket_id: str) -> bool:
        return self._step(ticket_id, "waiting", "cancelled")

    def settle(self, ticket_id: str) -> bool:
        return self._step(ticket_id, SEATING, "matched")

    def claim(self, ticket_ids: list[str], plan: Plan) -> bool:
        found = [self.items.get(TICKET + t) for t in ticket_ids]
        if any(item is None or item.get("status") != "waiting" for item in found):
            return False
        for item in found:
            assert item is not None
            item.update(status=SEATING, queue=SEATING, plan=stored(plan), tableId=plan["tableId"])
        return True

    def _queue(self, queue: str, limit: int) -> list[Ticket]:
        found = [i for i in self.items.values() if i.get("queue") == queue]
        found.sort(key=lambda i: (i["at"], i["id"]))
        return [from_item(i) for i in found[:limit]]

    def waiting(self, pool: str, limit: int = 1000) -> list[Ticket]:
        return self._queue(pool, limit)

    def seating(self, limit: int = 100) -> list[Ticket]:
        return self._queue(SEATING, limit)

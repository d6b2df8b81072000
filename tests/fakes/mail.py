"""The mail table in memory: one partition per player, items by sort key (``sk``) with the
attributes the adapters store, so a player's whole partition reads back as DynamoDB gives
it (the export, the deletion). The inbox's items (``harftet.store.inbox``: never overwritten
by an older version, ordered by ``rank``, the reminders' sparse index and their claims) and
the notifications' (``harftet.store.mail``: subscriptions, devices, preferences and the
at-most-once marks) share it."""

from __future__ import annotations

import copy
import json
from typing import Any

from harftet.store.answers import ANSWER_KEPT_SECONDS, FORMAT, answer_key, encode, unpack
from harftet.store.inbox import REMIND, REMIND_SHARDS, TABLE, DueReminder, InboxItem
from harftet.store.mail import (
    DEVICE,
    PREFS,
    PUSH,
    SENT,
    SENT_KEPT_SECONDS,
    Device,
    Prefs,
    Subscription,
)

Key = tuple[str, str]  # (playerId, sk)


class FakeMailTable:
    def __init__(self) -> None:
        self.items: dict[Key, dict[str, Any]] = {}

    def partition(self, player_id: str, prefix: str = "") -> list[dict[str, Any]]:
        """The player's items whose sort key starts with ``prefix``, in sort-key order."""
        found = [i for (p, sk), i in self.items.items() if p == player_id and sk.startswith(prefix)]
        return sorted(found, key=lambda i: str(i["sk"]))

    def put(self, item: dict[str, Any]) -> None:
        self.items[(str(item["playerId"]), str(item["sk"]))] = item


def _attributes(item: InboxItem) -> dict[str, Any]:
    kept: dict[str, Any] = {
        "playerId": item.player_id,
        "sk": TABLE + item.table_id,
        "rank": item.rank,
        "version": item.version,
        "pace": item.pace,
        "status": item.status,
        "entry": json.dumps(item.entry, ensure_ascii=False, separators=(",", ":")),
    }
    if item.expires_at is not None:
        kept["expiresAt"] = item.expires_at
    if item.remind_shard is not None and item.remind_at is not None:
        kept[REMIND] = f"{REMIND}#{item.remind_shard}"
        kept["remindAt"] = item.remind_at
    return kept


def _inbox_item(kept: dict[str, Any]) -> InboxItem:
    remind = kept.get(REMIND)
    return InboxItem(
        player_id=kept["playerId"],
        table_id=str(kept["sk"]).removeprefix(TABLE),
        version=int(kept["version"]),
        rank=kept["rank"],
        pace=kept["pace"],
        status=kept["status"],
        entry=json.loads(kept["entry"]),
        expires_at=kept.get("expiresAt"),
        remind_shard=int(remind.split("#")[1]) if remind else None,
        remind_at=kept.get("remindAt"),
    )


class FakeInbox:
    """Each player's tables, and the reminders due (the mail table's ``table#`` items)."""

    def __init__(self, table: FakeMailTable) -> None:
        self.table = table

    def put(self, item: InboxItem) -> bool:
        old = self.table.items.get((item.player_id, TABLE + item.table_id))
        if old is not None and int(old["version"]) >= item.version:
            return False
        self.table.put(_attributes(item))
        return True

    def delete_older(self, player_id: str, table_id: str, version: int) -> None:
        key = (player_id, TABLE + table_id)
        old = self.table.items.get(key)
        if old is not None and int(old["version"]) < version:
            del self.table.items[key]

    def page(
        self, player_id: str, limit: int, after: dict[str, str] | None = None
    ) -> tuple[list[InboxItem], dict[str, str] | None]:
        """The rank index: the player's items by rank (then sort key), ``after`` excluded."""
        ranked = sorted(
            (i for i in self.table.partition(player_id) if "rank" in i),
            key=lambda i: (i["rank"], i["sk"]),
        )
        if after is not None:
            ranked = [i for i in ranked if (i["rank"], i["sk"]) > (after["rank"], after["sk"])]
        page = ranked[:limit]
        last = page[-1] if len(ranked) > limit else None
        cursor = {k: str(last[k]) for k in ("playerId", "sk", "rank")} if last else None
        return [_inbox_item(i) for i in page], cursor

    def get(self, player_id: str, table_id: str) -> InboxItem | None:
        kept = self.table.items.get((player_id, TABLE + table_id))
        return _inbox_item(kept) if kept else None

    def due_reminders(self, now: float, limit: int = 100) -> list[DueReminder]:
        """The reminder index: each shard's due reminders, earliest first, ``limit`` a shard."""
        found: list[DueReminder] = []
        for shard in range(REMIND_SHARDS):
            due = sorted(
                (int(i["remindAt"]), p, sk)
                for (p, sk), i in self.table.items.items()
                if i.get(REMIND) == f"{REMIND}#{shard}" and int(i["remindAt"]) <= int(now * 1000)
            )
            found += [DueReminder(p, sk.removeprefix(TABLE), at) for at, p, sk in due[:limit]]
        return found

    def claim_reminder(self, item: DueReminder) -> InboxItem | None:
        kept = self.table.items.get((item.player_id, TABLE + item.table_id))
        if kept is None or kept.get("remindAt") != item.remind_at:
            return None
        kept.pop(REMIND, None)
        kept.pop("remindAt", None)
        return _inbox_item(kept)

    def everything_of(self, player_id: str) -> list[dict[str, Any]]:
        return copy.deepcopy(self.table.partition(player_id))

    def forget(self, player_id: str) -> list[dict[str, Any]]:
        items = self.everything_of(player_id)
        for item in items:
            del self.table.items[(player_id, str(item["sk"]))]
        return items


class FakeAnswers:
    """Move answers (``answer#`` items of the mail table, as harftet.store.answers keeps)."""

    def __init__(self, table: FakeMailTable, write_format: int = FORMAT) -> None:
        self.table = table
        self.write_format = write_format

    def put(self, player_id: str, table_id: str, move_id: str, body: str, now: float) -> None:
        item = {"playerId": player_id, "sk": answer_key(table_id, move_id)}
        data, number = encode(body, self.write_format)
        self.table.put(
            item | {"body": data, "dict": number} | {"expiresAt": int(now + ANSWER_KEPT_SECONDS)}
        )

    def get(self, player_id: str, table_id: str, move_id: str, now: float) -> str | None:
        item = self.table.items.get((player_id, answer_key(table_id, move_id)))
        if item is None or item["expiresAt"] <= now:
            return None
        return unpack(item["body"], item.get("dict"))


class FakeMail:
    """Subscriptions, devices, preferences and sent marks (the mail table's other items)."""

    def __init__(self, table: FakeMailTable) -> None:
        self.table = table

    def count(self, player_id: str, prefix: str) -> int:
        return len(self.table.partition(player_id, prefix))

    def has(self, player_id: str, prefix: str, item_id: str) -> bool:
        return (player_id, prefix + item_id) in self.table.items

    def put_subscription(self, player_id: str, sub: Subscription, now: float) -> None:
        item = {"playerId": player_id, "sk": PUSH + sub.id, "endpoint": sub.endpoint}
        self.table.put(item | {"p256dh": sub.p256dh, "auth": sub.auth, "createdAt": int(now)})

    def remove_subscription(self, player_id: str, sub_id: str) -> bool:
        return self.table.items.pop((player_id, PUSH + sub_id), None) is not None

    def subscriptions(self, player_id: str) -> list[Subscription]:
        return [
            Subscription(str(i["sk"]).removeprefix(PUSH), i["endpoint"], i["p256dh"], i["auth"])
            for i in self.table.partition(player_id, PUSH)
        ]

    def put_device(self, player_id: str, device: Device, now: float) -> None:
        item = {"playerId": player_id, "sk": DEVICE + device.id, "platform": device.platform}
        self.table.put(item | {"endpointArn": device.endpoint_arn, "createdAt": int(now)})

    def devices(self, player_id: str) -> list[Device]:
        return [
            Device(str(i["sk"]).removeprefix(DEVICE), i["platform"], i["endpointArn"])
            for i in self.table.partition(player_id, DEVICE)
        ]

    def remove_device(self, player_id: str, device_id: str) -> None:
        self.table.items.pop((player_id, DEVICE + device_id), None)

    def set_prefs(self, player_id: str, prefs: Prefs) -> None:
        item: dict[str, Any] = {"playerId": player_id, "sk": PREFS, "lang": prefs.lang}
        if prefs.quiet is not None:
            item |= {"quietStart": prefs.quiet[0], "quietEnd": prefs.quiet[1]}
        else:
            item["quietOff"] = True
        self.table.put(item)

    def prefs(self, player_id: str) -> Prefs | None:
        item = self.table.items.get((player_id, PREFS))
        if item is None:
            return None
        if item.get("quietOff"):
            return Prefs(item["lang"], None)
        return Prefs(item["lang"], (item["quietStart"], item["quietEnd"]))

    def claim(self, player_id: str, key: str, now: float, stale: float = 120.0) -> bool:
        """Unless it was sent, or another delivery's claim on it is younger than ``stale``."""
        old = self.table.items.get((player_id, SENT + key))
        if old is not None and not (old.get("state") == "claimed" and old["at"] < int(now - stale)):
            return False
        item = {"playerId": player_id, "sk": SENT + key, "state": "claimed", "at": int(now)}
        self.table.put(item | {"expiresAt": int(now + SENT_KEPT_SECONDS)})
        return True

    def sent(self, player_id: str, key: str) -> None:
        item = self.table.items.get((player_id, SENT + key))
        if item is not None:
            item["state"] = "sent"

    def release(self, player_id: str, key: str) -> None:
        self.table.items.pop((player_id, SENT + key), None)

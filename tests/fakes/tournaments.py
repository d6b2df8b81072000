"""Tournament items in memory (``harftet.store.tournaments``), keyed as the players table
keys them; each write on the condition its adapter states (held against it over moto by
tests/store/test_fakes_tournaments.py). A lock stands for DynamoDB's per-item atomicity, so
threads may race on it as concurrent Lambdas race on the table."""

from __future__ import annotations

import copy
import threading
from collections.abc import Sequence
from typing import Any

from harftet.store.tournament_deletion import swapped
from harftet.store.tournaments import (
    SHARDS,
    ResultWrite,
    counter_key,
    listed,
    plan_key,
    player_key,
    result_key,
    shard_key,
    tournament_key,
)
from harftet.store.writes import PlayerWrite

Staged = dict[str, dict[str, Any]]


class FakeTournaments:
    """Items by key (``items``); ``writes`` counts every write call (failed ones too)."""

    def __init__(self) -> None:
        self.items: dict[str, dict[str, Any]] = {}
        self.writes = 0
        self.lock = threading.RLock()

    # -- with a table's save -------------------------------------------------------------
    def stage(self, writes: Sequence[PlayerWrite]) -> Staged | None:
        staged: Staged = {}
        for write in writes:
            if not isinstance(write, ResultWrite):
                continue
            key = result_key(write.tournament_id, write.round, write.index)
            if key in self.items or key in staged:
                return None
            staged[key] = {
                "playerId": key, "players": list(write.players),
                "penalties": list(write.penalties), "endedMs": write.ended_ms,
                "left": list(write.left), "tournamentId": write.tournament_id,
                "round": write.round, "index": write.index,
            }  # fmt: skip
        return staged

    def apply(self, staged: Staged) -> None:
        with self.lock:
            self.items.update(staged)

    # -- reads ---------------------------------------------------------------------------
    def _get(self, key: str) -> dict[str, Any] | None:
        with self.lock:
            item = self.items.get(key)
            return copy.deepcopy(item) if item is not None else None

    def get(self, tid: str) -> dict[str, Any] | None:
        return self._get(tournament_key(tid)) if 0 < len(tid) <= 64 else None

    def _listed(self, status: str) -> list[dict[str, Any]]:
        with self.lock:
            found = [
                copy.deepcopy(i) for i in self.items.values() if i.get("board") == listed(status)
            ]
        return sorted(found, key=lambda i: (i["score"], i["playerId"]))

    def page(
        self, status: str, limit: int, after: dict[str, Any] | None = None
    ) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
        found = self._listed(status)
        if status == "finished":
            found.reverse()
        if after is not None:
            keys = [i["playerId"] for i in found]
            start = keys.index(after["playerId"]["S"]) + 1 if after["playerId"]["S"] in keys else 0
            found = found[start:]
        page = found[:limit]
        last = {"playerId": {"S": page[-1]["playerId"]}} if len(found) > limit else None
        return page, last

    def due(self, status: str, now: float, limit: int = 100) -> list[dict[str, Any]]:
        return [i for i in self._listed(status) if i["score"] <= int(now)][:limit]

    def entrants(self, tid: str) -> dict[str, dict[str, Any]]:
        found: dict[str, dict[str, Any]] = {}
        for k in range(SHARDS):
            for name, value in (self._get(f"tre#{tid}#{k}") or {}).items():
                if name.startswith("e#"):
                    found[name[2:]] = value
        return found

    def entry(self, tid: str, player_id: str) -> dict[str, Any] | None:
        return (self._get(shard_key(tid, player_id)) or {}).get("e#" + player_id)

    def plan(self, tid: str, round_number: int) -> list[list[str]] | None:
        item = self._get(plan_key(tid, round_number))
        return [list(t) for t in item["tables"]] if item else None

    def plans(self, tid: str, rounds: int) -> dict[int, dict[str, Any]]:
        found = {r: self._get(plan_key(tid, r)) for r in range(1, rounds + 1)}
        return {
            r: {"tables": [list(t) for t in item["tables"]], "proofs": item.get("proofs") or []}
            for r, item in found.items()
            if item is not None
        }

    def results(self, tid: str, round_number: int, tables: int) -> list[dict[str, Any]]:
        keys = [result_key(tid, round_number, i) for i in range(tables)]
        return [i for i in (self._get(k) for k in keys) if i is not None]

    def ended(self, tid: str, round_number: int) -> int:
        return int((self._get(counter_key(tid, round_number)) or {}).get("ended", 0))

    def of_player(self, player_id: str) -> dict[str, Any]:
        item = self._get(player_key(player_id)) or {}
        badges = {k[6:]: v for k, v in item.items() if k.startswith("badge#")}
        return {"ids": sorted(item.get("ids") or ()), "badges": badges}

    # -- writes --------------------------------------------------------------------------
    def _write(self) -> None:
        self.writes += 1

    def create(self, item: dict[str, Any]) -> bool:
        with self.lock:
            self._write()
            key = tournament_key(str(item["tournamentId"]))
            if key in self.items:
                return False
            self.items[key] = {
                **copy.deepcopy(item), "playerId": key, "board": listed(str(item["status"])),
                "score": int(item["startsAt"]),
            }  # fmt: skip
            return True

    def register(self, tid: str, player_id: str, entry: dict[str, Any], now: float) -> bool:
        with self.lock:
            self._write()
            t = self.items.get(tournament_key(tid))
            shard = self.items.get(shard_key(tid, player_id)) or {}
            if (
                t is None or t["status"] != "registering" or t["entries"] >= t["capacity"]
                or not float(t["startsAt"]) > now or not float(t["opensAt"]) <= now
                or "e#" + player_id in shard
            ):  # fmt: skip
                return False
            t["entries"] += 1
            key = shard_key(tid, player_id)
            self.items[key] = {**shard, "playerId": key, "e#" + player_id: copy.deepcopy(entry)}
            mine = self.items.setdefault(player_key(player_id), {"playerId": player_key(player_id)})
            mine["ids"] = {*(mine.get("ids") or ()), tid}
            return True

    def unregister(self, tid: str, player_id: str, now: float) -> bool:
        with self.lock:
            self._write()
            t = self.items.get(tournament_key(tid))
            shard = self.items.get(shard_key(tid, player_id)) or {}
            if (
                t is None or t["status"] != "registering" or not float(t["startsAt"]) > now
                or "e#" + player_id not in shard
            ):  # fmt: skip
                return False
            t["entries"] -= 1
            del shard["e#" + player_id]
            mine = self.items.setdefault(player_key(player_id), {"playerId": player_key(player_id)})
            ids = set(mine.get("ids") or ()) - {tid}
            if ids:
                mine["ids"] = ids
            else:
                mine.pop("ids", None)
            return True

    def step(self, tid: str, expect: dict[str, Any], sets: dict[str, Any]) -> bool:
        with self.lock:
            self._write()
            t = self.items.get(tournament_key(tid))
            if t is None or any(t.get(k) != v for k, v in expect.items()):
                return False
            t.update(copy.deepcopy(sets))
            if "status" in sets:
                t["board"] = listed(str(sets["status"]))
            return True

    def put_plan(self, tid: str, round_number: int, tables: list[list[str]]) -> list[list[str]]:
        with self.lock:
            self._write()
            key = plan_key(tid, round_number)
            if key not in self.items:
                self.items[key] = {"playerId": key, "tables": copy.deepcopy(tables)}
            return [list(t) for t in self.items[key]["tables"]]

    def put_proofs(self, tid: str, round_number: int, proofs: list[str]) -> None:
        with self.lock:
            self._write()
            item = self.items.get(plan_key(tid, round_number))
            if item is not None and "proofs" not in item:
                item["proofs"] = list(proofs)

    def proofs(self, tid: str, round_number: int) -> list[str]:
        return list((self._get(plan_key(tid, round_number)) or {}).get("proofs") or [])

    def count(self, tid: str, round_number: int, index: int) -> bool:
        with self.lock:
            self._write()
            result = self.items.get(result_key(tid, round_number, index))
            if result is None or result.get("counted"):
                return False
            result["counted"] = True
            key = counter_key(tid, round_number)
            counter = self.items.setdefault(key, {"playerId": key, "ended": 0})
            counter["ended"] += 1
            return True

    def award(self, player_id: str, tid: str, name: str, place: int) -> None:
        with self.lock:
            self._write()
            mine = self.items.setdefault(player_key(player_id), {"playerId": player_key(player_id)})
            mine["badge#" + tid] = {"name": name, "place": place}
            mine["ids"] = {*(mine.get("ids") or ()), tid}

    def anonymise(
        self, tid: str, player_id: str, anon: str, entry: dict[str, Any], rounds: int
    ) -> None:
        with self.lock:
            self._write()
            shard = self.items.get(shard_key(tid, player_id)) or {}
            if "e#" + player_id in shard:
                del shard["e#" + player_id]
                key = shard_key(tid, anon)
                found = self.items.setdefault(key, {"playerId": key})
                found["e#" + anon] = copy.deepcopy(entry)
            for r in range(1, rounds + 1):
                plan = self.items.get(plan_key(tid, r))
                if plan is None:
                    continue
                for i, people in enumerate(plan["tables"]):
                    if player_id not in people:
                        continue
                    self._write()
                    result = self.items.get(result_key(tid, r, i))
                    if result is not None:
                        for f in ("players", "left"):
                            result[f] = swapped(result.get(f) or [], player_id, anon)
                plan["tables"] = swapped(plan["tables"], player_id, anon)

    def forget(self, player_id: str) -> None:
        with self.lock:
            self._write()
            self.items.pop(player_key(player_id), None)

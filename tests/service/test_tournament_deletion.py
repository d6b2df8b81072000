"""A deleted player in tournaments (API.md v4 "Deleted players": nothing the player owned
remains, finished games keep the anonymous seat; RULES §8): in a finished tournament she
becomes an anonymous entrant, "deleted-…" named "Silinmiş oyuncu", so the others' points,
ranks and podium stay as they were; while a tournament runs she is out and never seated
again; before the start her entry is withdrawn. Her export before the deletion lists what
she had; after it, no tournament item holds her id or her name."""

from __future__ import annotations

import json
from typing import Any

from test_tournaments import _create, _end_round, _entered, _people, _started, _viewer

GONE = "Silinmiş oyuncu"


def _everything(app: Any) -> str:
    """Every tournament item stored, as text (the fake's items, keyed as the table's)."""
    return json.dumps(app.stores.tournaments.items, default=_plain, ensure_ascii=False)


def _plain(value: Any) -> Any:
    return sorted(value) if isinstance(value, set | frozenset) else str(value)


def test_a_deleted_podium_player_becomes_an_anonymous_entrant_of_a_finished_tournament(app):
    t = _create(app, rounds=2)
    tid = t["tournamentId"]
    callers = _entered(app, t, 6)
    view = _started(app, t)
    _end_round(app, view, 1)
    _end_round(app, app.tournaments.view(callers[0], tid), 2)
    before = app.tournaments.view(callers[0], tid)
    assert before["status"] == "finished"
    first = before["standings"][0]
    champion = next(c for c in callers if c.player_id == first["playerId"])
    exported = app.data.export(champion)["tournaments"]
    assert exported == [{
        "tournamentId": tid, "badge": {"name": "Akşam Kupası", "place": 1},
        "entry": {"name": first["name"], "rating": 1000, "at": exported[0]["entry"]["at"]},
        "tables": exported[0]["tables"],
    }]  # fmt: skip
    tables = exported[0]["tables"]  # one table a round, each among the round's own tables
    assert len(tables) == 2 and all(
        any(row["tableId"] == t and row["round"] == r for row in before["tables"])
        for r, t in enumerate(tables, 1)
    ), tables
    assert champion.player_id in _everything(app)
    app.data.delete(champion)
    after = app.tournaments.view(_viewer(app), tid)
    shown = after["standings"][0]
    assert shown["playerId"].startswith("deleted-") and shown["name"] == GONE
    same = ("rank", "points", "penalty", "tables")
    assert [{k: s[k] for k in same} for s in after["standings"]] == [
        {k: s[k] for k in same} for s in before["standings"]
    ]  # every place, point and penalty as it was
    assert after["standings"][1:] == before["standings"][1:]
    assert after["podium"] == before["podium"]
    assert after["entries"] == before["entries"] == 6
    assert champion.player_id not in json.dumps(after) and first["name"] not in json.dumps(after)
    assert champion.player_id not in _everything(app)  # entries, plans, results, badges
    assert first["name"] not in _everything(app)
    second = before["standings"][1]["playerId"]
    assert app.profiles.profile(second)["badges"][0]["place"] == 2  # the others keep theirs


def test_a_player_deleted_while_it_runs_is_out_and_never_seated_again(app):
    t = _create(app, rounds=2)
    tid = t["tournamentId"]
    callers = _entered(app, t, 8)
    view = _started(app, t)
    leaver = callers[3]
    app.data.delete(leaver)  # mid-game: her seat is left (RULES §4) and made anonymous
    _end_round(app, view, 1)
    view = app.tournaments.view(_viewer(app), tid)
    assert view["round"] == 2
    assert len(view["standings"]) == 7
    assert not any(s["playerId"].startswith("deleted-") for s in view["standings"])
    second = [p for e in view["tables"] if e["round"] == 2 for p in _people(app, e["tableId"])]
    assert len(second) == 7 and not any(p.startswith("deleted-") for p in second)
    assert leaver.player_id not in second and leaver.player_id not in _everything(app)
    _end_round(app, view, 2)
    done = app.tournaments.view(_viewer(app), tid)
    assert done["status"] == "finished" and len(done["standings"]) == 7
    assert [s["points"] for s in done["standings"]] == sorted(
        (s["points"] for s in done["standings"]), reverse=True
    )


def test_a_player_deleted_before_the_start_frees_her_place(app):
    t = _create(app, capacity=4)
    tid = t["tournamentId"]
    callers = _entered(app, t, 4)
    app.data.delete(callers[0])
    view = app.tournaments.view(callers[1], tid)
    assert view["entries"] == 3 and len(view["standings"]) == 3
    assert callers[0].player_id not in _everything(app)

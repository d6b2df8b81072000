"""Table options, the break between hands, hint budgets and deal proofs through the service
(RULES §2a, §4a, §4b, §5a; API.md v3), over in-process moto."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from leaks import tile_ids
from service_helpers import player

from harftet.engine import search
from harftet.engine.errors import EngineError, NoHintsLeftError, WrongStatusError
from harftet.engine.moves import Draw, Lay, Pass, Ready
from harftet.engine.state import Placed
from harftet.errors import STATUS
from harftet.identity import Caller
from harftet.service import Service

RUN_RED = [0, 1, 2]  # Kastet red 1, 2, 3 (copy 0)
RUN_BLUE = [30, 31, 32]  # Kastet blue 5, 6, 7


def table_of(service: Service, seats: int = 2, **options: Any) -> tuple[str, list[Caller]]:
    """A started Kastet table of ``seats`` people with ``options``."""
    callers = [player(service, f"Oyuncu{i}") for i in range(seats)]
    options = {"hands": 2, "seed": 11, **options}
    view = service.create_table(
        callers[0], game="kastet", seats=seats, partners=False, turn_seconds=45, **options
    )
    for i, caller in enumerate(callers[1:], start=1):
        service.sit(caller, view["tableId"], i)
    service.start(callers[0], view["tableId"])
    return view["tableId"], callers


def rig(service: Service, table_id: str, seat: int, ids: list[int]) -> None:
    """Give ``seat`` exactly the tiles ``ids`` (swapped with wherever they were)."""
    stored = service.tables.get(table_id)
    table = stored.table.clone()
    mine = table.seats[seat].hand
    spare = [t for t in mine if t not in ids]
    for t in ids:
        if t in mine:
            continue
        holder = table.pile if t in table.pile else next(s.hand for s in table.seats if t in s.hand)
        holder[holder.index(t)] = spare.pop()
    table.pile += spare  # the rest of the rack goes to the pile: every tile in one place
    table.seats[seat].hand = list(ids)
    service.tables.save(stored, table)


def in_turn(service: Service, table_id: str, callers: list[Caller]) -> tuple[int, Caller]:
    seat = service.view(callers[0], table_id)["turn"]["seat"]
    return seat, callers[seat]


def act(service: Service, caller: Caller, table_id: str, move: Any, tag: str) -> dict[str, Any]:
    version = service.view(caller, table_id)["version"]
    return service.move(caller, table_id, version, tag, move)


def finish_hand(service: Service, table_id: str, callers: list[Caller]) -> dict[str, Any]:
    """The player in turn lays their whole (rigged) hand and passes: the hand ends."""
    seat, caller = in_turn(service, table_id, callers)
    rig(service, table_id, seat, RUN_RED)
    act(service, caller, table_id, Lay(series=(tuple(Placed(t) for t in RUN_RED),)), "lay")
    return act(service, caller, table_id, Pass(), "finish")


@pytest.fixture
def two_runs(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A search that proposes laying the red run, then the blue one: two melds."""
    asked: list[int] = []

    def fake(table: Any, seat: int) -> search.Proposal:
        asked.append(seat)
        lay = Lay(series=(tuple(map(Placed, RUN_RED)), tuple(map(Placed, RUN_BLUE))))
        return search.Proposal(lay=lay, shed=6 + 18, tiles=tuple(RUN_RED + RUN_BLUE))

    monkeypatch.setattr(search, "hint", fake, raising=False)
    return asked


# --- options -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"break_seconds": 4}, "breakSeconds"),
        ({"grace_seconds": 29}, "graceSeconds"),
        ({"wait_seconds": 601}, "waitSeconds"),
        ({"turn_seconds": 9}, "turnSeconds"),
        ({"hints": 21}, "hints"),
        ({"hints": "unlimited"}, "hints"),
        ({"pace": "correspondence", "turn_seconds": 45}, "turnSeconds"),
    ],
)
def test_options_out_of_bounds_are_refused_naming_the_field_outside_test_mode(
    service: Service, options: dict[str, Any], field: str
) -> None:
    service.test_mode = False
    ayse = player(service, "Ayşe")
    options = {"turn_seconds": 45, **options}
    with pytest.raises(EngineError, match=field) as refused:
        service.create_table(ayse, game="kastet", seats=2, hands=1, partners=False, **options)
    assert STATUS[refused.value.code] == 400 and refused.value.code == "bad_request"
    assert service.lobby()["tables"] == []


def test_test_mode_goes_below_the_bounds_and_the_view_shows_every_option(
    service: Service,
) -> None:
    ayse = player(service, "Ayşe")
    view = service.create_table(
        ayse, game="harftet", seats=2, hands=3, partners=False, turn_seconds=2,
        break_seconds=0, grace_seconds=3, wait_seconds=4, hints="unlimited", rated=False,
    )  # fmt: skip
    assert (view["turnSeconds"], view["breakSeconds"]) == (2, 0)
    assert (view["graceSeconds"], view["waitSeconds"]) == (3, 4)
    assert (view["hints"], view["rated"], view["pace"]) == ("unlimited", False, "live")
    assert view["hintsLeft"] is None and view["dealProof"] is None and "break" not in view
    mail = service.create_table(
        ayse, game="kastet", seats=2, hands=1, partners=False, turn_seconds=86400,
        pace="correspondence", hints=5,
    )  # fmt: skip
    assert (mail["pace"], mail["turnSeconds"], mail["hints"], mail["hintsLeft"]) == (
        "correspondence", 86400, 5, 5,
    )  # fmt: skip


def test_an_unrated_table_changes_no_rating(service: Service) -> None:
    table_id, callers = table_of(service, hands=1, rated=False)
    finish_hand(service, table_id, callers)
    view = service.view(callers[0], table_id)
    assert view["status"] == "finished" and view["practice"] is True
    assert [service.player(c.player_id)["rating"] for c in callers] == [1000, 1000]
    assert [service.player(c.player_id)["gamesPlayed"] for c in callers] == [0, 0]


# --- the break between hands ---------------------------------------------------------------


def test_a_hand_ends_in_a_break_with_no_clock_and_no_deal_before_it_ends(
    service: Service, clock: Any, outbox: Any
) -> None:
    table_id, callers = table_of(service, break_seconds=30)
    ended = finish_hand(service, table_id, callers)
    assert ended["handNumber"] == 1 and ended["turn"] is None  # no clock runs
    assert ended["break"] == {"until": clock.now + 30, "ready": []}
    assert [r["hand"] for r in ended["handResults"]] == [1] and ended["series"]  # in view
    proof = ended["dealProof"]
    for caller in callers:
        with pytest.raises(WrongStatusError, match="after the break"):
            act(service, caller, table_id, Draw(), "early")
    clock.advance(29)
    still = service.view(callers[1], table_id)
    assert still["handNumber"] == 1 and still["break"]["until"] == clock.now + 1
    clock.advance(1)
    dealt = service.view(callers[1], table_id)  # the break is over: the next hand
    assert dealt["handNumber"] == 2 and "break" not in dealt and dealt["series"] == []
    assert dealt["turn"]["deadline"] == clock.now + 45  # the opener's clock starts at the deal
    assert dealt["dealProof"] != proof and len(dealt["dealProof"]) == 64


def test_ready_from_everyone_deals_the_next_hand_at_once(service: Service, clock: Any) -> None:
    table_id, callers = table_of(service, seats=3)
    finish_hand(service, table_id, callers)
    clock.advance(2)
    one = act(service, callers[0], table_id, Ready(), "r0")
    assert one["break"]["ready"] == [0] and one["handNumber"] == 1
    again = service.move(callers[0], table_id, one["version"], "r0b", Ready())
    assert again["version"] == one["version"]  # said twice: nothing more
    two = act(service, callers[2], table_id, Ready(), "r2")
    assert two["break"]["ready"] == [0, 2]
    clock.advance(1)
    dealt = act(service, callers[1], table_id, Ready(), "r1")
    assert dealt["handNumber"] == 2 and "break" not in dealt
    assert dealt["turn"]["deadline"] == clock.now + 45
    with pytest.raises(WrongStatusError, match="no break"):
        act(service, callers[1], table_id, Ready(), "late")


def test_ready_outside_a_break_is_wrong_status(service: Service) -> None:
    table_id, callers = table_of(service)
    with pytest.raises(WrongStatusError):
        act(service, callers[0], table_id, Ready(), "r")


# --- hints ------------------------------------------------------------------------------


def test_each_hint_reveals_one_meld_and_costs_one_until_none_are_left(
    service: Service, two_runs: list[int]
) -> None:
    table_id, callers = table_of(service, hints=2)
    seat, me = in_turn(service, table_id, callers)
    rig(service, table_id, seat, RUN_RED + RUN_BLUE + [104])
    other = callers[1 - seat]
    theirs = {t["id"] for t in service.view(other, table_id)["hand"]}
    before = service.view(me, table_id)
    assert before["hintsLeft"] == 2
    first = service.hint(me, table_id)
    assert first["meld"] == [{"id": t, "from": "hand"} for t in RUN_RED]
    assert first["lay"] is None and first["shed"] == 24 and first["tiles"] == RUN_RED
    assert first["hintsLeft"] == 1 and first["version"] == before["version"] + 1
    assert first["area"] == "series" and first["revealed"] == 1
    assert service.view(me, table_id)["hintsLeft"] == 1
    assert service.view(other, table_id)["hintsLeft"] == 2  # budgets are per player
    second = service.hint(me, table_id)
    assert [t["id"] for t in second["meld"]] == RUN_BLUE and second["hintsLeft"] == 0
    assert second["tiles"] == sorted(RUN_RED + RUN_BLUE) and second["revealed"] == 2
    again = service.hint(me, table_id, reveal=1)  # a retry of a meld paid for: free
    assert again["meld"] == first["meld"] and again["version"] == second["version"]
    with pytest.raises(NoHintsLeftError, match="2 hints") as spent:
        service.hint(me, table_id)
    assert STATUS[spent.value.code] == 409 and spent.value.code == "no_hints_left"
    assert service.view(me, table_id)["version"] == second["version"]  # nothing changed
    for answer in (first, second, again):  # only the caller's own tiles (RULES §5)
        assert not tile_ids(answer) & theirs and not set(answer["tiles"]) & theirs
    assert not tile_ids(service.view(other, table_id)) & set(RUN_RED + RUN_BLUE)


def test_hints_are_counted_per_hand(service: Service, two_runs: list[int]) -> None:
    table_id, callers = table_of(service, hints=1, break_seconds=5)
    seat, me = in_turn(service, table_id, callers)
    rig(service, table_id, seat, RUN_RED + RUN_BLUE + [104])
    service.hint(me, table_id)
    with pytest.raises(NoHintsLeftError):
        service.hint(me, table_id)
    finish = finish_hand(service, table_id, callers)
    with pytest.raises(WrongStatusError):  # no hints in the break
        service.hint(me, table_id)
    assert finish["hintsLeft"] == 0 and finish["seat"] == seat
    for i, caller in enumerate(callers):
        act(service, caller, table_id, Ready(), f"ready{i}")
    assert [service.view(c, table_id)["hintsLeft"] for c in callers] == [1, 1]


def test_unlimited_hints_give_the_whole_lay_and_store_nothing(
    service: Service, two_runs: list[int]
) -> None:
    table_id, callers = table_of(service, hints="unlimited", rated=False)
    seat, me = in_turn(service, table_id, callers)
    rig(service, table_id, seat, RUN_RED + RUN_BLUE + [104])
    version = service.view(me, table_id)["version"]
    for _ in range(3):
        hint = service.hint(me, table_id)
        assert hint["version"] == version and hint["hintsLeft"] is None
        series = [[{"id": t} for t in RUN_RED], [{"id": t} for t in RUN_BLUE]]
        assert hint["lay"] == {"series": series, "pairs": []}
        assert hint["tiles"] == RUN_RED + RUN_BLUE


# --- deal proofs --------------------------------------------------------------------------


def test_the_view_commits_to_each_deal_and_the_replay_reveals_what(
    service: Service, clock: Any
) -> None:
    table_id, callers = table_of(service, break_seconds=5)
    proofs = [service.view(callers[0], table_id)["dealProof"]]
    assert service.view(None, table_id)["dealProof"] == proofs[0]  # spectators see it too
    finish_hand(service, table_id, callers)
    clock.advance(5)
    proofs.append(service.view(callers[0], table_id)["dealProof"])
    finish_hand(service, table_id, callers)
    replay = service.replay(callers[0], table_id)
    assert [h["dealProof"] for h in replay["hands"]] == proofs
    for number, hand in enumerate(replay["hands"], start=1):
        committed = hand["committed"]
        assert hashlib.sha256(committed.encode()).hexdigest() == hand["dealProof"]
        assert committed == f"harftet-deal-v1|{replay['salt']}|{replay['seed']}:{number}"
    assert len(replay["salt"]) == 32  # 128 bits, never shown before the end
    for view in (service.view(callers[0], table_id), replay["table"]):
        assert replay["salt"] not in str(view)


# --- pushes ------------------------------------------------------------------------------


@pytest.fixture
def live(service: Service, dynamodb: Any) -> Any:
    from types import SimpleNamespace

    from streams import TableStream
    from test_live import FakeLog, FakeTimers

    from harftet.publish import Publisher, changes_from_stream

    timers = FakeTimers()
    publisher = Publisher(service, log=FakeLog(), timers=timers, sleep=lambda s: None)
    stream = TableStream(dynamodb, "harftet-tables")

    def pump() -> int:
        return stream.deliver(lambda event: publisher.publish(changes_from_stream(event)))

    return SimpleNamespace(pump=pump, timers=timers)


def test_pushes_after_a_hint_and_in_the_break_show_only_each_players_own_tiles(
    service: Service, outbox: Any, live: Any, clock: Any, two_runs: list[int]
) -> None:
    table_id, callers = table_of(service, hints=2, break_seconds=7)
    seat, me = in_turn(service, table_id, callers)
    rig(service, table_id, seat, RUN_RED + RUN_BLUE + [104])
    for i, caller in enumerate(callers):
        service.connect(caller, table_id, f"c{i}")
    service.connect(player(service, "Seyirci"), table_id, "watch")
    live.pump()
    outbox.sent.clear()
    hint = service.hint(me, table_id)
    live.pump()
    other = 1 - seat
    theirs = {t["id"] for t in service.view(callers[other], table_id)["hand"]}
    mine = set(RUN_RED + RUN_BLUE + [104])
    [to_me] = outbox.to(f"c{seat}")
    [to_them] = outbox.to(f"c{other}")
    [watched] = outbox.to("watch")
    assert to_me["view"]["version"] == hint["version"] and to_me["view"]["hintsLeft"] == 1
    assert to_them["view"]["hintsLeft"] == 2 and watched["view"]["hintsLeft"] is None
    assert not tile_ids(to_them) & mine and not tile_ids(watched) & (mine | theirs)
    assert tile_ids(to_me) <= mine  # the hint's meld is in the answer, never in a push
    outbox.sent.clear()
    ended = finish_hand(service, table_id, callers)
    live.pump()
    assert ended["break"]["until"] in [t.due for t in live.timers.scheduled]  # the timer
    for i in range(2):
        pushed = outbox.to(f"c{i}")[-1]["view"]
        assert pushed["break"] == ended["break"] and pushed["turn"] is None
        own = {t["id"] for t in pushed["hand"]}
        table = tile_ids(pushed["series"]) | tile_ids(pushed["handResults"])
        assert tile_ids(pushed) <= own | table  # the racks turned over, nothing else
        assert pushed["dealProof"] == ended["dealProof"]

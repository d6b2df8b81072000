"""Every stored version of one whole game between computer players: what the push-size
bench (bench_push) measures and the delta tests (tests/unit/test_delta_games.py) replay.

Seats taken, the start, every move of a medium computer player, each player ready between
hands (the last one dealing the next), and now and then a connection dropping and coming
back (3 % of the turns, from the game's own seeded random).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Generator, Iterator

from harftet.engine import hand
from harftet.engine import table as life
from harftet.engine.bot import choose_move
from harftet.engine.hand import apply_move
from harftet.engine.options import TableOptions
from harftet.engine.rules import Rules
from harftet.engine.state import Occupant, Table


def versions(
    game: str,
    players: int,
    hands: int,
    seed: int,
    *,
    now: float = 1_800_000_000.0,
    step: float = 5.0,
    back_after: float = 2.0,
    words: Collection[str] | None = None,
    rules: Rules | None = None,
) -> Iterator[Table]:
    """The versions of one game: ``step`` seconds between turns, a dropped connection back
    ``back_after`` seconds later; ``words`` and ``rules`` as ``choose_move`` and
    ``apply_move`` take them (None: the game's own dictionary)."""
    rng = random.Random(seed)
    people = [Occupant(f"p{i}", f"Oyuncu {i}") for i in range(players)]

    def drops(table: Table, now: float) -> Iterator[Table]:
        if rng.random() < 0.03:
            player_id = f"p{rng.randrange(players)}"
            table = life.disconnect(table, player_id, now).table
            yield table
            yield life.reconnect(table, player_id, now + back_after).table

    def medium(table: Table, seat: int, now: float) -> Table:
        move = choose_move(table, seat, "medium", words)
        return apply_move(table, seat, move, now, rules=rules).table

    table = yield from begun("t1", game, people, hands, seed, now)
    yield from played(table, players, now, step, medium, before=drops)


def begun(
    table_id: str, game: str, people: list[Occupant], hands: int, seed: int, now: float
) -> Generator[Table, None, Table]:
    """A new table of ``people``'s first, the others sitting down in order, the start: each
    version; the started table."""
    players = len(people)
    table = life.new_table(
        table_id, people[0], TableOptions(game, seats=players, hands=hands), seed=seed, now=now
    )  # type: ignore[arg-type]
    yield table
    for i in range(1, players):
        table = life.sit(table, i, people[i], now).table
        yield table
    table = life.start(table, people[0].player_id, now).table
    yield table
    return table


def played(
    table: Table,
    players: int,
    now: float,
    step: float,
    turn: Callable[[Table, int, float], Table],
    before: Callable[[Table, float], Iterator[Table]] | None = None,
) -> Iterator[Table]:
    """The game played to its end, each version: ``step`` seconds on, ``before``'s versions
    (if any), then between hands every player ready (the last one deals), else the seat in
    turn's move (``turn(table, seat, now)``)."""
    while table.status == "playing":
        now += step
        if before is not None:
            for version in before(table, now):
                table = version
                yield table
        if table.break_until is not None:  # between hands: each says ready, the last deals
            for ready in range(players):
                table = hand.ready(table, ready, now).table
                yield table
            continue
        seat = table.turn_seat
        assert seat is not None
        table = turn(table, seat, now)
        yield table

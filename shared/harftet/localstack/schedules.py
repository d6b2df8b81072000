"""The local stack's schedules, as EventBridge runs them in AWS: the sweeper, the matcher, the
league roll-over, the tournaments, the synthetic game and the key rotation, each on its
template rate unless the environment sets it."""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING

from starlette.concurrency import run_in_threadpool

from harftet.localstack import lambda_events
from harftet.localstack.runtime import HandlerError, LambdaFunction
from harftet.localstack.template import TemplateSettings

if TYPE_CHECKING:
    from harftet.localstack.emulator import Emulator

log = logging.getLogger("harftet.localstack")
# How often the local schedule drives the tournaments (AWS: every minute). A table's end
# starts the next round at once through the stream; the schedule starts round 1 at its time,
# and a later round with a time of its own (roundMinutes) once that time comes.
TOURNAMENT_SECONDS = 2.0


def start(emulator: Emulator) -> list[asyncio.Task[None]]:
    """Start every schedule the emulator has a function for."""
    runs = [
        (emulator.sweeper, sweep_forever),
        (emulator.matcher, match_forever),
        (emulator.leagues, roll_leagues_forever),
        (emulator.tournaments, run_tournaments_forever),
        (emulator.synthetic_game and emulator.synthetic_seconds, play_synthetic_forever),
        (emulator.keys and emulator.key_rotation_seconds, rotate_keys_forever),
    ]
    return [asyncio.create_task(run(emulator)) for on, run in runs if on]


async def sweep_forever(emulator: Emulator) -> None:
    """Invoke the sweeper every `sweep_seconds`, like an EventBridge rate schedule."""
    assert emulator.sweeper is not None
    await every(emulator.sweep_seconds, emulator.sweeper, "sweeper", "harftet-sweep")


async def match_forever(emulator: Emulator) -> None:
    """Invoke the matcher every `match_seconds` (its schedule: bands widen, waits end)."""
    assert emulator.matcher is not None
    await every(emulator.match_seconds, emulator.matcher, "matcher", "harftet-match")


async def roll_leagues_forever(emulator: Emulator) -> None:
    """Run the league roll-over on its schedule (template.yaml's cron, checked by
    harftet.leagues.weeks.roll_due every `sweep_seconds`)."""
    from harftet.leagues.weeks import roll_due

    assert emulator.leagues is not None
    checked = time.time()
    while True:
        await asyncio.sleep(emulator.sweep_seconds)
        now = time.time()
        if roll_due(checked, now):
            try:
                await emulator.leagues.invoke(lambda_events.scheduled_event("harftet-leagues"))
            except Exception:
                log.exception("league roll-over failed")
        checked = now


async def run_tournaments_forever(emulator: Emulator) -> None:
    """Run the tournaments' schedule (template.yaml's rate(1 minute), every
    `tournament_seconds` here: a tournament a test starts now starts at once)."""
    assert emulator.tournaments is not None
    await every(
        emulator.tournament_seconds, emulator.tournaments, "tournaments", "harftet-tournaments"
    )


async def play_synthetic_forever(emulator: Emulator) -> None:
    """The cell's synthetic game on the template's schedule: functions/synthetic plays a
    guest against a computer player through this stack's public REST API and WebSocket,
    as SyntheticFunction does in AWS; its last result is in `GET /health` as
    ``synthetic``."""
    assert emulator.synthetic_game is not None and emulator.synthetic_seconds is not None
    while True:
        await asyncio.sleep(emulator.synthetic_seconds)  # as a schedule: a period, then a game
        try:
            event = lambda_events.scheduled_event("harftet-synthetic")
            result = dict(await emulator.synthetic_game.invoke(event))
        except Exception as error:  # the function itself failed: a failed game
            result = {"ok": False, "seconds": 0.0, "moves": 0, "error": repr(error)}
        emulator.synthetic = {**result, "at": time.time()}
        if not result["ok"]:
            log.error("synthetic game failed: %s", result.get("error"))


async def rotate_keys_forever(emulator: Emulator) -> None:
    """Rotate the signing keys on their schedule (KeyRotationFunction in AWS): a new key
    signs, the one before still verifies (harftet.identity). The last rotation is in
    `GET /health` as ``keys``."""
    assert emulator.keys is not None and emulator.key_rotation_seconds
    while True:
        await asyncio.sleep(emulator.key_rotation_seconds)
        try:
            result = await emulator.keys.invoke(lambda_events.scheduled_event("harftet-keys"))
        except Exception:
            log.exception("key rotation failed")
            continue
        done = (emulator.keys_rotated or {}).get("rotations", 0) + 1
        emulator.keys_rotated = {"kids": result["kids"], "at": time.time(), "rotations": done}
        if emulator.on_keys_rotated is not None:
            await run_in_threadpool(emulator.on_keys_rotated)


async def every(seconds: float, function: LambdaFunction, name: str, rule: str) -> None:
    """Invoke ``function`` every ``seconds``, like an EventBridge rate schedule."""
    while True:
        await asyncio.sleep(seconds)
        try:
            await function.invoke(lambda_events.scheduled_event(rule))
        except HandlerError as error:
            log.error("%s failed: %s", name, error)
        except Exception:
            log.exception("%s invocation failed", name)


def synthetic_seconds(env: Mapping[str, str], settings: TemplateSettings | None) -> float | None:
    """How often the local stack plays the synthetic game: ``SYNTHETIC_SECONDS`` (0: never),
    else the template's SyntheticGameRate (None: no schedule)."""
    every = env.get("SYNTHETIC_SECONDS") or os.environ.get("SYNTHETIC_SECONDS")
    return (float(every) or None) if every else rate_seconds(settings)


def key_rotation_seconds(env: Mapping[str, str], settings: TemplateSettings | None) -> float | None:
    """How often the local stack rotates the signing keys: ``KEY_ROTATION_SECONDS`` (0: never),
    else the template's TokenKeyRotationRate (None: no schedule)."""
    every = env.get("KEY_ROTATION_SECONDS") or os.environ.get("KEY_ROTATION_SECONDS")
    if every:
        return float(every) or None
    return rate_seconds(settings, "key_rotation_rate")


UNIT_SECONDS = {"minute": 60, "hour": 3600, "day": 86400}


def rate_seconds(
    settings: TemplateSettings | None, rate_of: str = "synthetic_rate"
) -> float | None:
    """A schedule of the template in seconds (``rate(5 minutes)``: 300): by default the
    SyntheticGameRate's."""
    rate = getattr(settings, rate_of, None) if settings else None
    if not rate:
        return None
    number, unit = rate.removeprefix("rate(").removesuffix(")").split()
    return float(number) * UNIT_SECONDS[unit.removesuffix("s")]

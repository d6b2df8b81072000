"""The timer function (functions/timer/app.py) fed SQS batches as Lambda hands them on: one
message per deadline a version sets, unless a message due before it stands for it; when it
falls due the table's due event is applied, whatever version the table is at, unless the
table holds another deadline by then (which the message goes on to if that one leaned on
it)."""

from __future__ import annotations

import pytest
from testkit import LambdaContext

from harftet.timers import Timer

pytestmark = pytest.mark.filterwarnings("ignore:No application metrics to publish")


class RecordingTimers:
    def __init__(self):
        self.scheduled = []

    def schedule(self, timer, now):
        self.scheduled.append(timer)


@pytest.fixture
def timers(app, monkeypatch):
    recording = RecordingTimers()
    monkeypatch.setattr(app.publisher, "timers", recording)
    monkeypatch.setattr(app.firing, "queue", recording)
    return recording


def fire(api, apps, timer):
    event = api.event("timer/timer", tableId=timer.table_id, version=timer.version, due=timer.due)
    return apps.timer.handler(event, LambdaContext("harftet-TimerFunction-1A2B"))


def test_the_stream_schedules_the_turn_timer_and_it_forces_the_move_at_the_deadline(
    api, ws, apps, clock, outbox, timers
):
    game = api.game(turnSeconds=10)
    sleeper, before = api.turn(game)
    ws("connect", token=sleeper.token, tableId=game.table_id, connectionId="c")
    timer = timers.scheduled[-1]
    assert timer == Timer(game.table_id, before["version"], before["turn"]["deadline"])
    clock.advance(10)
    assert fire(api, apps, timer) == {"batchItemFailures": []}
    after = api.view(sleeper, game.table_id)
    assert after["version"] == before["version"] + 1 and len(after["hand"]) == 15
    assert after["turn"]["seat"] != before["turn"]["seat"]
    assert outbox.view("c", before) == after  # the stream pushed the forced move
    assert timers.scheduled[-1] == Timer(game.table_id, after["version"], clock.now + 10)


def test_a_timer_whose_deadline_the_table_no_longer_holds_does_nothing(api, apps, clock, timers):
    game = api.game(turnSeconds=10)
    mover, before = api.turn(game)
    timer = timers.scheduled[-1]
    clock.advance(9)  # a second before the first deadline: too near to lean on its message
    api.move("move-draw", mover, game, before, "d")
    assert timers.scheduled[-1].due == clock.now + 10  # the next turn's own timer
    clock.advance(1)  # the first deadline: the table holds another one now
    with api.unchanged(mover, game.table_id):
        assert fire(api, apps, timer) == {"batchItemFailures": []}
    assert timers.scheduled[-1].due == clock.now + 9  # nothing sent again


def test_a_turn_that_ends_early_leans_on_the_sent_timer_which_goes_on_to_the_next_deadline(
    api, apps, clock, timers
):
    game = api.game(turnSeconds=10)
    mover, before = api.turn(game)
    timer = timers.scheduled[-1]
    sent = len(timers.scheduled)
    clock.advance(3)
    api.move("move-draw", mover, game, before, "d")
    assert len(timers.scheduled) == sent  # the first message, due before, stands for it
    waiting, view = api.turn(game)
    clock.advance(7)  # the first deadline: the table holds the next turn's, 3 s later
    with api.unchanged(waiting, game.table_id):
        assert fire(api, apps, timer) == {"batchItemFailures": []}
    again = timers.scheduled[-1]
    assert again.due == view["turn"]["deadline"] == clock.now + 3
    clock.advance(3)
    assert fire(api, apps, again) == {"batchItemFailures": []}
    after = api.view(waiting, game.table_id)
    assert after["turn"]["seat"] != view["turn"]["seat"]  # the next turn timed out all the same


def test_a_change_that_keeps_the_deadline_sends_no_timer_and_the_sent_one_still_fires(
    api, ws, apps, clock, timers
):
    game = api.game(turnSeconds=10)
    sleeper, before = api.turn(game)
    timer = timers.scheduled[-1]
    sent = len(timers.scheduled)
    ws("connect", token=sleeper.token, tableId=game.table_id, connectionId="c1")
    ws("disconnect", connectionId="c1")  # presence changes: new versions, the same deadline
    assert api.view(sleeper, game.table_id)["version"] > before["version"]
    assert len(timers.scheduled) == sent
    clock.advance(10)
    assert fire(api, apps, timer) == {"batchItemFailures": []}
    after = api.view(sleeper, game.table_id)
    assert after["turn"]["seat"] != before["turn"]["seat"]  # the turn timed out all the same


def test_a_timer_that_came_early_is_sent_again_not_slept_on(api, apps, clock, timers):
    game = api.game(turnSeconds=10)
    mover, _ = api.turn(game)
    timer = timers.scheduled[-1]
    clock.advance(9)
    with api.unchanged(mover, game.table_id):
        assert fire(api, apps, timer) == {"batchItemFailures": []}
    assert timers.scheduled[-1] == timer


def test_a_message_that_is_no_timer_is_dropped_without_a_retry(api, apps):
    """`sam local generate-event sqs receive-message`: "Hello from SQS!"."""
    event = api.event("timer/sam-sqs-receive-message")
    context = LambdaContext("harftet-TimerFunction-1A2B")
    assert apps.timer.handler(event, context) == {"batchItemFailures": []}


def test_a_timer_whose_table_cannot_be_written_is_handed_back_for_a_retry(
    api, apps, clock, timers, app, monkeypatch
):
    api.game(turnSeconds=10)
    timer = timers.scheduled[-1]
    clock.advance(10)

    def throttled(*args, **kwargs):
        raise RuntimeError("ThrottlingException")

    monkeypatch.setattr(app.stores.tables, "save", throttled)
    event = api.event("timer/timer", tableId=timer.table_id, version=timer.version, due=timer.due)
    answer = apps.timer.handler(event, LambdaContext("harftet-TimerFunction-1A2B"))
    assert answer == {"batchItemFailures": [{"itemIdentifier": event["Records"][0]["messageId"]}]}

"""The timer function (functions/timer/app.py) fed SQS batches as Lambda hands them on: a
table's due event is applied only while the table is still at the timer's version."""

from __future__ import annotations

import pytest

from harftet.timers import Timer

pytestmark = pytest.mark.filterwarnings("ignore:No application metrics to publish")


class Context:
    """The attributes of a Lambda context the handlers' powertools decorators read."""

    function_version = "$LATEST"
    memory_limit_in_mb = 512
    aws_request_id = "52fdfc07-2182-154f-163f-5f0f9a621d72"
    log_group_name = "/aws/lambda/harftet"
    log_stream_name = "2026/01/01/[$LATEST]0123456789abcdef"

    def __init__(self, function_name):
        self.function_name = function_name
        self.invoked_function_arn = (
            f"arn:aws:lambda:us-east-1:123456789012:function:{function_name}"
        )

    def get_remaining_time_in_millis(self):
        return 10_000


class RecordingTimers:
    def __init__(self):
        self.scheduled = []

    def schedule(self, timer, now):
        self.scheduled.append(timer)


@pytest.fixture
def timers(apps, monkeypatch):
    recording = RecordingTimers()
    monkeypatch.setattr(apps.fanout.publisher, "timers", recording)
    monkeypatch.setattr(apps.timer.publisher, "timers", recording)
    monkeypatch.setattr(apps.timer.publisher, "sleep", lambda seconds: None)
    return recording


def fire(api, apps, timer):
    event = api.event("timer/timer", tableId=timer.table_id, version=timer.version, due=timer.due)
    return apps.timer.handler(event, Context("harftet-TimerFunction-1A2B"))


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


def test_a_timer_that_fires_after_the_table_moved_on_does_nothing(api, apps, clock, timers):
    game = api.game(turnSeconds=10)
    mover, before = api.turn(game)
    timer = timers.scheduled[-1]
    api(
        "move-draw", token=mover.token, tableId=game.table_id, version=before["version"], moveId="d"
    )
    clock.advance(10)
    with api.unchanged(mover, game.table_id):
        assert fire(api, apps, timer) == {"batchItemFailures": []}


def test_a_message_that_is_no_timer_is_dropped_without_a_retry(api, apps):
    """`sam local generate-event sqs receive-message`: "Hello from SQS!"."""
    event = api.event("timer/sam-sqs-receive-message")
    context = Context("harftet-TimerFunction-1A2B")
    assert apps.timer.handler(event, context) == {"batchItemFailures": []}


def test_a_timer_whose_table_cannot_be_written_is_handed_back_for_a_retry(
    api, apps, clock, timers, service, monkeypatch
):
    api.game(turnSeconds=10)
    timer = timers.scheduled[-1]
    clock.advance(10)

    def throttled(*args, **kwargs):
        raise RuntimeError("ThrottlingException")

    monkeypatch.setattr(service.tables, "save", throttled)
    event = api.event("timer/timer", tableId=timer.table_id, version=timer.version, due=timer.due)
    answer = apps.timer.handler(event, Context("harftet-TimerFunction-1A2B"))
    assert answer == {"batchItemFailures": [{"itemIdentifier": event["Records"][0]["messageId"]}]}

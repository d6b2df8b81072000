"""template.yaml's live-events resources: the tables stream feeding the fan-out, the timer
queue feeding the timer function, their event source mappings, and least privilege."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from harftet.localstack.template import read_template
from harftet.store.schema import load_template

TEMPLATE = Path(__file__).resolve().parents[1] / "template.yaml"


@pytest.fixture(scope="module")
def resources() -> dict[str, Any]:
    found: dict[str, Any] = load_template(TEMPLATE)["Resources"]
    return found


def _props(resources: dict[str, Any], name: str) -> dict[str, Any]:
    props: dict[str, Any] = resources[name]["Properties"]
    return props


def _statements(resources: dict[str, Any], policy: str) -> list[dict[str, Any]]:
    statements: list[dict[str, Any]] = _props(resources, policy)["PolicyDocument"]["Statement"]
    return statements


def test_every_stored_version_of_a_table_reaches_the_fan_out_through_the_stream(resources):
    assert _props(resources, "TablesTable")["StreamSpecification"] == {
        "StreamViewType": "NEW_AND_OLD_IMAGES"
    }
    mapping = _props(resources, "FanoutEventSource")
    assert mapping["FunctionName"] == {"Ref": "FanoutFunction"}
    assert mapping["EventSourceArn"] == {"Fn::GetAtt": ["TablesTable", "StreamArn"]}
    assert mapping["MaximumBatchingWindowInSeconds"] == 0  # latency first
    assert mapping["BisectBatchOnFunctionError"] is True
    assert 0 < mapping["MaximumRetryAttempts"] <= 10
    assert 60 <= mapping["MaximumRecordAgeInSeconds"] <= 3600
    assert mapping["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    assert mapping["DestinationConfig"]["OnFailure"]["Destination"] == {
        "Fn::GetAtt": ["FanoutFailureQueue", "Arn"]
    }
    [pattern] = mapping["FilterCriteria"]["Filters"]
    assert json.loads(pattern["Pattern"]) == {"eventName": ["INSERT", "MODIFY"]}


def test_timers_are_delayed_messages_with_a_dead_letter_queue_and_a_consumer(resources):
    queue = _props(resources, "TimerQueue")
    timer = _props(resources, "TimerFunction")
    timeout = timer.get("Timeout", 10)
    assert queue["VisibilityTimeout"] >= 6 * timeout  # Lambda's advice for SQS consumers
    assert queue["RedrivePolicy"]["deadLetterTargetArn"] == {
        "Fn::GetAtt": ["TimerDeadLetterQueue", "Arn"]
    }
    mapping = _props(resources, "TimerEventSource")
    assert mapping["FunctionName"] == {"Ref": "TimerFunction"}
    assert mapping["EventSourceArn"] == {"Fn::GetAtt": ["TimerQueue", "Arn"]}
    assert mapping["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    for function in ("FanoutFunction", "TimerFunction"):
        variables = _props(resources, function)["Environment"]["Variables"]
        assert variables["TIMER_QUEUE_URL"] == {"Ref": "TimerQueue"}
    for name in ("TimerQueue", "TimerDeadLetterQueue", "FanoutFailureQueue"):
        assert _props(resources, name)["SqsManagedSseEnabled"] is True


def test_the_new_functions_get_only_their_own_stream_and_queues(resources):
    [stream, send] = _statements(resources, "FanoutAccessPolicy")
    assert stream["Resource"] == {"Fn::GetAtt": ["TablesTable", "StreamArn"]}
    assert set(stream["Action"]) == {
        "dynamodb:DescribeStream",
        "dynamodb:GetRecords",
        "dynamodb:GetShardIterator",
        "dynamodb:ListStreams",
    }
    assert send["Action"] == "sqs:SendMessage"
    assert {r["Fn::GetAtt"][0] for r in send["Resource"]} == {"TimerQueue", "FanoutFailureQueue"}
    [receive] = _statements(resources, "TimerAccessPolicy")
    assert receive["Resource"] == {"Fn::GetAtt": ["TimerQueue", "Arn"]}
    assert all(a.startswith("sqs:") and "*" not in a for a in receive["Action"])
    fanout = _props(resources, "FanoutFunction")["Policies"]
    timer = _props(resources, "TimerFunction")["Policies"]
    assert {"Ref": "FanoutAccessPolicy"} in fanout and {"Ref": "TimerAccessPolicy"} not in fanout
    assert {"Ref": "TimerAccessPolicy"} in timer and {"Ref": "FanoutAccessPolicy"} not in timer
    # The fan-out appends the log; nothing else writes it.
    assert {"Ref": "LogWritePolicy"} in fanout and {"Ref": "LogWritePolicy"} not in timer
    assert _props(resources, "FanoutFunction")["Environment"]["Variables"]["LOG_TABLE"] == {
        "Ref": "LogTable"
    }
    # Explicit event source mappings: SAM adds no AWS-managed execution role with "*".
    for function in ("FanoutFunction", "TimerFunction"):
        assert "Events" not in _props(resources, function)


def test_the_local_stack_reads_the_same_event_source_mappings_and_queues():
    settings = read_template(TEMPLATE)
    by_function = {m.function: m for m in settings.mappings}
    assert by_function["fanout"].kind == "stream" and by_function["fanout"].source == "TablesTable"
    assert by_function["fanout"].event_names == ("INSERT", "MODIFY")
    assert by_function["timer"].kind == "queue" and by_function["timer"].source == "TimerQueue"
    assert {"TimerQueue", "TimerDeadLetterQueue", "FanoutFailureQueue"} <= set(settings.queues)
    assert settings.timeouts["fanout"] == 30 and settings.timeouts["timer"] == 10

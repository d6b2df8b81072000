"""The handlers take what `sam local generate-event` prints for their triggers.

A developer tests with SAM's own events: `sam local generate-event apigateway aws-proxy`
(base64 body, SAM's default headers, `?foo=bar`, stage variables) for every REST route of
template.yaml, `cloudwatch scheduled-event` for the sweeper. Each event is generated once per
test session (about a second each, so in parallel), the project's path, ids, token and body
are filled in (the body stays base64, as SAM encodes it), and it is replayed through the real
handler; the answers are the documented ones (API.md). The hand-written events/ samples are
checked against SAM's shapes too.
"""

from __future__ import annotations

import base64
import copy
import json
import os
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from harftet.localstack.lambda_events import FakeLambdaContext
from harftet.store.schema import load_template

pytestmark = pytest.mark.filterwarnings("ignore:No application metrics to publish")

REPO = Path(__file__).resolve().parents[2]
SAM = REPO / ".venv-sam" / "bin" / "sam"
EVENTS = REPO / "events"
PATH_PARAMETER = re.compile(r"\{(\w+)\}")
# Bodies SAM is asked to encode (it always base64-encodes --body); runtime values such as a
# table's version are filled in later, re-encoded the same way.
SAM_BODIES = {
    ("POST", "/players"): {"name": "Ayşe"},
    ("POST", "/tables"): {"game": "kastet", "seats": 2, "hands": 1},
    ("POST", "/tables/{tableId}/moves"): {"version": 0, "moveId": "m1", "type": "draw"},
}
# Keys real events carry that SAM's samples leave out (EventBridge sends "version": "0").
NOT_IN_SAMS_SAMPLE = {"sweeper": {"version"}}


# `sam local generate-event`, the CLI's own click command, run for many events in one SAM
# process: a process per event (about 100 of them) spent 90 s of the suite starting Python.
GENERATE = """
import json, sys
from click.testing import CliRunner
from samcli.cli.main import cli
runner, answers = CliRunner(), {}
for key, args in json.load(sys.stdin).items():
    result = runner.invoke(cli, ["local", "generate-event", *args])
    answers[key] = {"code": result.exit_code, "output": result.output}
json.dump(answers, sys.stdout)
"""


def _sam(jobs: dict[str, list[str]]) -> dict[str, dict[str, Any]]:
    """{key: the event `sam local generate-event *args` prints} for each of ``jobs``."""
    if not SAM.exists():
        pytest.fail(f"{SAM} missing: run `make test` (it installs the AWS SAM CLI into .venv-sam)")
    result = subprocess.run(
        [str(SAM.parent / "python"), "-c", GENERATE],
        input=json.dumps(jobs),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=REPO,
        env={**os.environ, "SAM_CLI_TELEMETRY": "0"},
    )
    assert result.returncode == 0, f"sam local generate-event:\n{result.stderr}"
    events: dict[str, dict[str, Any]] = {}
    for key, answer in json.loads(result.stdout).items():
        assert answer["code"] == 0, f"sam local generate-event {jobs[key]}:\n{answer['output']}"
        events[key] = json.loads(answer["output"])
    return events


def _rest_routes() -> list[tuple[str, str]]:
    """(METHOD, resource path) of every Api event of RestFunction in template.yaml."""
    events = load_template(REPO / "template.yaml")["Resources"]["RestFunction"]["Properties"]
    return sorted(
        (e["Properties"]["Method"].upper(), e["Properties"]["Path"])
        for e in events["Events"].values()
        if e["Type"] == "Api"
    )


def _rest_args(method: str, resource: str) -> list[str]:
    args = ["apigateway", "aws-proxy", "--method", method, "--resource", resource]
    args += ["--path", resource.lstrip("/")]
    # A route without a body gets an empty one (SAM's default is {"test":"body"}).
    body = SAM_BODIES.get((method, resource))
    args += ["--body", "" if body is None else json.dumps(body, ensure_ascii=False)]
    return args


class SamEvents:
    """SAM's events, generated once: ``rest[(METHOD, resource)]``, ``lobby``, ``scheduled``,
    ``dynamodb`` (stream records), ``sqs`` (a received message)."""

    def __init__(self) -> None:
        jobs: dict[Any, list[str]] = {route: _rest_args(*route) for route in _rest_routes()}
        jobs["lobby"] = [
            *_rest_args("GET", "/tables"),
            "--querystringparameters",
            '{"status": "waiting"}',
        ]
        jobs["scheduled"] = ["cloudwatch", "scheduled-event"]
        jobs["dynamodb"] = ["dynamodb", "update"]  # the tables stream → FanoutFunction
        jobs["sqs"] = ["sqs", "receive-message"]  # TimerQueue → TimerFunction (--body breaks it)
        keys = {repr(job): job for job in jobs}
        answers = _sam({key: jobs[job] for key, job in keys.items()})
        generated = {job: answers[key] for key, job in keys.items()}
        self.scheduled = generated.pop("scheduled")
        self.dynamodb = generated.pop("dynamodb")
        self.sqs = generated.pop("sqs")
        self.lobby = generated.pop("lobby")
        self.rest: dict[tuple[str, str], dict[str, Any]] = generated

    def request(
        self,
        method: str,
        resource: str,
        *,
        token: str | None = None,
        body: Any = ...,
        base: dict[str, Any] | None = None,
        **path: Any,
    ) -> dict[str, Any]:
        """SAM's event for the route with the path, the token and (base64) body filled in."""
        event = copy.deepcopy(base if base is not None else self.rest[method, resource])
        values = {k: str(v) for k, v in path.items()}
        assert set(PATH_PARAMETER.findall(resource)) == set(values), (resource, values)
        concrete = PATH_PARAMETER.sub(lambda m: values[m.group(1)], resource)
        event["path"] = concrete
        event["pathParameters"] = values or None
        event["requestContext"]["path"] = f"/{event['requestContext']['stage']}{concrete}"
        if body is not ...:
            raw = json.dumps(body, ensure_ascii=False).encode()
            event["body"] = base64.b64encode(raw).decode("ascii")
            event["isBase64Encoded"] = True
        if token is not None:
            event["headers"]["Authorization"] = f"Bearer {token}"
            event["multiValueHeaders"]["Authorization"] = [f"Bearer {token}"]
        return event


@pytest.fixture(scope="session")
def sam_events() -> SamEvents:
    return SamEvents()


def _plain(event: dict[str, Any]) -> dict[str, Any]:
    """The same event with its body decoded, as API Gateway sends text without binary types."""
    event = copy.deepcopy(event)
    event["body"] = base64.b64decode(event["body"]).decode("utf-8")
    event["isBase64Encoded"] = False
    return event


def _error(reply: Any, status: int, code: str) -> None:
    assert (reply.status, reply.body["error"]["code"]) == (status, code), reply.body


# ------------------------------------------------------------------------------- REST


def test_sams_create_player_event_with_its_base64_body_makes_a_player(api, sam_events):
    event = sam_events.rest["POST", "/players"]
    assert event["isBase64Encoded"] is True  # what the issue saw: SAM encodes every --body
    assert event["queryStringParameters"] == {"foo": "bar"}  # SAM's defaults go through too
    for variant in (event, _plain(event)):
        reply = api.invoke(variant)
        assert reply.status == 201, reply.body
        assert reply.body["name"] == "Ayşe"
        assert set(reply.body) >= {"playerId", "name", "token", "rating"}


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("not base64!", "not valid base64"),
        (base64.b64encode(b"\xff\xfe{}").decode(), "not UTF-8"),
        (base64.b64encode(b'{"name": ').decode(), "not valid JSON"),
        (base64.b64encode(b"x" * 70_000).decode(), "larger than"),
    ],
)
def test_a_base64_body_that_is_not_json_text_is_a_400(api, sam_events, body, message):
    event = copy.deepcopy(sam_events.rest["POST", "/players"])
    event["body"] = body
    reply = api.invoke(event)
    _error(reply, 400, "bad_request")
    assert message in reply.body["error"]["message"]


def test_every_route_answers_sams_events_as_documented(api, sam_events):
    """One game through SAM's events, route by route; every route of the template is used."""
    used: set[tuple[str, str]] = set()

    def call(method: str, resource: str, **kwargs: Any) -> Any:
        used.add((method, resource))
        return api.invoke(sam_events.request(method, resource, **kwargs))

    assert call("GET", "/health").body == {"status": "ok"}
    made = [api.invoke(sam_events.request("POST", "/players", body={"name": n})) for n in "AB"]
    used.add(("POST", "/players"))
    owner, guest = (m.body for m in made)
    assert all(m.status == 201 for m in made)

    reply = call("GET", "/players/{playerId}", token=guest["token"], playerId=owner["playerId"])
    assert reply.status == 200
    assert set(reply.body) >= {"playerId", "name", "rating", "gamesPlayed", "gamesAbandoned"}
    _error(call("GET", "/players/{playerId}", playerId=owner["playerId"]), 401, "unauthorized")

    reply = call("POST", "/tables", token=owner["token"])  # SAM's encoded body, as generated
    assert reply.status == 201, reply.body
    table = reply.body
    assert (table["game"], table["status"], len(table["seats"])) == ("kastet", "waiting", 2)
    table_id = table["tableId"]

    lobby = api.invoke(
        sam_events.request("GET", "/tables", token=guest["token"], base=sam_events.lobby)
    )
    assert lobby.status == 200 and table_id in [t["tableId"] for t in lobby.body["tables"]]
    # SAM's default query (?foo=bar) is no lobby option: the lobby still lists waiting tables.
    reply = call("GET", "/tables", token=guest["token"])
    assert reply.status == 200 and table_id in [t["tableId"] for t in reply.body["tables"]]

    reply = call("GET", "/tables/{tableId}", token=guest["token"], tableId=table_id)
    assert (reply.status, reply.body["tableId"]) == (200, table_id)
    seat = "/tables/{tableId}/seats/{seat}"
    reply = call("POST", seat, token=guest["token"], tableId=table_id, seat=1)
    assert reply.status == 200 and reply.body["seats"][1]["playerId"] == guest["playerId"]
    _error(call("POST", seat, token=owner["token"], tableId=table_id, seat=1), 409, "seat_taken")
    _error(
        call("POST", "/tables/{tableId}/start", token=guest["token"], tableId=table_id),
        403,
        "not_manager",
    )
    reply = call("POST", "/tables/{tableId}/start", token=owner["token"], tableId=table_id)
    assert (reply.status, reply.body["status"]) == (200, "playing"), reply.body

    turn = reply.body["turn"]["seat"]
    mover, waiter = (owner, guest) if turn == 0 else (guest, owner)
    moves = "/tables/{tableId}/moves"
    version = reply.body["version"]
    draw = {"version": version, "moveId": "sam-1", "type": "draw"}
    _error(
        call("POST", moves, token=waiter["token"], tableId=table_id, body=draw),
        403,
        "not_your_turn",
    )
    reply = call("POST", moves, token=mover["token"], tableId=table_id, body=draw)
    assert reply.status == 200 and reply.body["version"] > version, reply.body
    stale = call(
        "POST", moves, token=mover["token"], tableId=table_id, body={**draw, "moveId": "x"}
    )
    _error(stale, 409, "stale_version")
    assert stale.body["view"]["version"] == reply.body["version"]
    _error(
        call("POST", "/tables/{tableId}/continue", token=owner["token"], tableId=table_id),
        409,
        "wrong_status",
    )
    reply = call("DELETE", seat, token=guest["token"], tableId=table_id, seat=1)
    assert reply.status == 200, reply.body

    # Routes that land later (hints, the log, replays...) at least reach their handler: a
    # documented answer, never "no route" and never a 5xx.
    # DELETE /players/me goes last: it deletes the player the other calls are made as.
    for method, resource in sorted(
        set(sam_events.rest) - used, key=lambda r: (r == ("DELETE", "/players/me"), r)
    ):
        if resource == "/{proxy+}":  # CORS preflight: answered only with AllowedOrigins set
            reply = call(method, resource, token=owner["token"])
            assert (reply.status, reply.body["error"]["code"]) == (404, "not_found"), reply.body
            continue
        names = PATH_PARAMETER.findall(resource)
        if method == "ANY":  # any other method on a known path: 405 with the path's methods
            reply = call(method, resource, token=owner["token"], **{n: "x" for n in names})
            assert reply.status == 405 and reply.headers.get("Allow"), (resource, reply.body)
            assert reply.body["error"]["code"] == "method_not_allowed"
            continue
        values = {"tableId": table_id, "playerId": owner["playerId"], "seat": 0}
        values |= {"passkeyId": "x", "id": "0" * 20}
        values["game"] = "kastet"
        values["word"] = "ŞARKI"
        values |= {"week": "2026-W49", "division": "bronz-1"}
        values["ticketId"] = "x"
        values["tournamentId"] = "0" * 12  # no such tournament: 404
        reply = call(method, resource, token=owner["token"], **{n: values[n] for n in names})
        documented = (200, 201, 202, 204, 400, 403, 404, 409, 422)
        assert reply.status in documented, (method, resource, reply.body)
        assert reply.body is None or "no route" not in json.dumps(reply.body), (method, resource)
    assert used == set(sam_events.rest)


# ------------------------------------------------------------------------------- WebSocket


def test_a_websocket_message_arriving_base64_encoded_is_read_like_a_text_one(ws, api, outbox):
    """SAM has no WebSocket event generator; a binary frame reaches $default base64-encoded."""
    player = api.player()
    game = api.table(player)
    ws("connect", token=player.token, tableId=game["tableId"], connectionId="c-bin")
    event = api.event("ws/ping", connectionId="c-bin")
    event["body"] = base64.b64encode(json.dumps({"action": "ping"}).encode()).decode()
    event["isBase64Encoded"] = True
    assert ws.invoke(event)["statusCode"] == 200
    assert outbox.to("c-bin")[-1] == {"type": "pong"}


# ------------------------------------------------------------------------------- sweeper


def test_the_sweeper_takes_sams_scheduled_event(api, apps, sam_events, clock):
    game = api.game(turnSeconds=30)
    _, before = api.turn(game)
    context = FakeLambdaContext("harftet-SweeperFunction-1A2B3C4D", timeout_seconds=58)
    assert apps.sweeper.handler(copy.deepcopy(sam_events.scheduled), context) == {"swept": 0}
    clock.advance(31)
    assert apps.sweeper.handler(copy.deepcopy(sam_events.scheduled), context) == {"swept": 1}
    after = api.view(game.players[0], game.table_id)
    assert after["version"] == before["version"] + 1
    assert after["turn"]["seat"] != before["turn"]["seat"]


# ------------------------------------------------------------------------------- events/


def _shape(value: Any) -> str:
    """A JSON value's kind; null stands for "absent here", which SAM's samples often are."""
    return "null" if value is None else type(value).__name__


def _samples(folder: str) -> Iterator[Path]:
    yield from sorted((EVENTS / folder).glob("*.json"))


def _check_shape(
    sample: dict[str, Any], sam: dict[str, Any], where: str, extra: set[str] = frozenset()
) -> None:
    missing = set(sam) - set(sample)
    assert not missing, f"{where}: keys SAM's event has and the sample lacks: {sorted(missing)}"
    unexpected = set(sample) - set(sam) - extra
    assert not unexpected, f"{where}: keys SAM's event does not have: {sorted(unexpected)}"
    for key in set(sam) & set(sample):
        kinds = {_shape(sam[key]), _shape(sample[key])} - {"null"}
        assert len(kinds) <= 1, f"{where}: {key} is {_shape(sample[key])}, SAM's {_shape(sam[key])}"


def test_the_hand_written_events_have_sams_shapes(sam_events):
    checks: list[tuple[Path, dict[str, Any], set[str]]] = []
    sam_rest = sam_events.rest["POST", "/players"]
    checks += [(p, sam_rest, set()) for p in _samples("rest")]
    checks += [
        (p, sam_events.scheduled, NOT_IN_SAMS_SAMPLE["sweeper"]) for p in _samples("sweeper")
    ]
    assert len(checks) >= 20
    for path, sam, extra in checks:
        sample = json.loads(path.read_text(encoding="utf-8"))
        where = str(path.relative_to(REPO))
        _check_shape(sample, sam, where, extra)
        if "requestContext" in sam:
            context = sample["requestContext"]
            missing = set(sam["requestContext"]) - set(context)
            assert not missing, f"{where}: requestContext lacks {sorted(missing)}"
            assert set(sam["requestContext"]["identity"]) <= set(context["identity"]), where
            assert context["resourcePath"] == sample["resource"], where
            assert context["httpMethod"] == sample["httpMethod"], where
            assert isinstance(sample["isBase64Encoded"], bool), where
    stream_and_queue = [
        (p, sam)
        for folder, sam in (("fanout", sam_events.dynamodb), ("timer", sam_events.sqs))
        for p in _samples(folder)
    ]
    assert stream_and_queue, "events/fanout and events/timer hold the stream and queue samples"
    for path, sam in stream_and_queue:
        sample = json.loads(path.read_text(encoding="utf-8"))
        where = str(path.relative_to(REPO))
        _check_shape(sample, sam, where)
        for record in sample["Records"]:  # every record has the keys of SAM's records
            _check_shape(record, sam["Records"][0], where)


# ------------------------------------------------------------------------------- stream, timers


class _Timers:
    """Records the timers the fan-out schedules (instead of sending them to SQS)."""

    def __init__(self) -> None:
        self.scheduled: list[Any] = []

    def schedule(self, timer: Any, now: float) -> None:
        self.scheduled.append(timer)


def test_the_fan_out_takes_sams_dynamodb_update_event_filled_with_the_tables_stream(
    api, ws, apps, sam_events, stream, outbox, monkeypatch
):
    sam = sam_events.dynamodb
    context = FakeLambdaContext("harftet-FanoutFunction-1A2B3C4D", timeout_seconds=30)
    # SAM's own records (an item that is no table): nothing to publish, nothing fails.
    assert apps.fanout.handler(copy.deepcopy(sam), context) == {"batchItemFailures": []}
    assert outbox.sent == []

    game = api.game()
    for i, player in enumerate(game.players):
        ws("connect", token=player.token, tableId=game.table_id, connectionId=f"s{i}")
    mover, before = api.turn(game)
    monkeypatch.setattr(api, "after", None)  # hold the stream back: this test hands it on
    reply = api.move("move-draw", mover, game, before, "sam-draw")
    assert reply.status == 200
    [modify] = [r for r in sam["Records"] if r["eventName"] == "MODIFY"]
    records = [
        {
            **copy.deepcopy(modify),
            **{k: r[k] for k in ("eventID", "eventName", "dynamodb", "eventSourceARN")},
        }
        for event in stream.events()
        for r in event["Records"]
    ]
    assert records, "the move reached the stream"
    outbox.sent.clear()
    assert apps.fanout.handler({"Records": records}, context) == {"batchItemFailures": []}
    for i, player in enumerate(game.players):
        pushed = outbox.to(f"s{i}")[-1]
        assert pushed == {"type": "table", "view": api.view(player, game.table_id)}


def test_the_timer_takes_sams_sqs_event_with_a_timer_in_its_body(
    api, apps, app, sam_events, clock, monkeypatch
):
    sam = sam_events.sqs
    context = FakeLambdaContext("harftet-TimerFunction-1A2B3C4D", timeout_seconds=10)
    # SAM's own body ("Hello from SQS!") is no timer: dropped, not retried.
    assert apps.timer.handler(copy.deepcopy(sam), context) == {"batchItemFailures": []}

    timers = _Timers()
    monkeypatch.setattr(app.publisher, "timers", timers)
    monkeypatch.setattr(app.firing, "queue", timers)  # the timer function never sleeps
    game = api.game(turnSeconds=10)
    sleeper, before = api.turn(game)
    event = copy.deepcopy(sam)
    event["Records"][0]["body"] = timers.scheduled[-1].body()
    clock.advance(10)
    assert apps.timer.handler(event, context) == {"batchItemFailures": []}
    after = api.view(sleeper, game.table_id)
    assert after["version"] == before["version"] + 1  # the turn ran out: a forced draw
    assert after["turn"]["seat"] != before["turn"]["seat"]

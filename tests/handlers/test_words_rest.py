"""The word routes through the real REST handler (API.md v3 "Words"): look-ups without a
token, reports with one, statuses, codes, Retry-After, 405 with Allow, and that refusals
store nothing."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import pytest
from testkit import routed

pytestmark = pytest.mark.filterwarnings("ignore:No application metrics to publish")


@pytest.fixture
def call(api: Any) -> Any:

    def request(
        method: str, path: str, body: Any = None, token: str | None = None, lang: str = "tr"
    ) -> Any:
        event = routed(
            api.event("rest/get-player", token="t", playerId="p"), method, path, body, token
        )
        event["headers"]["Accept-Language"] = lang
        event["multiValueHeaders"]["Accept-Language"] = [lang]
        return api.invoke(event)

    yield request


def _reports_of(dynamodb: Any, table_names: dict[str, str], word: str) -> dict[str, Any]:
    key = {"playerId": {"S": f"word#{word}"}}
    item = dynamodb.get_item(TableName=table_names["PlayersTable"], Key=key, ConsistentRead=True)
    return {k: int(v["N"]) for k, v in item.get("Item", {}).items() if "N" in v}


def test_a_known_word_needs_no_token(call: Any) -> None:
    reply = call("GET", "/words/" + quote("şarkı"))
    assert reply.status == 200, reply.body
    assert reply.body == {
        "word": "ŞARKI",
        "known": True,
        "kinds": ["isim"],
        "sources": ["nlptoolkit-dictionary", "zemberek", "hunspell-tr"],
    }
    raw = call("GET", "/words/kalem")  # an undecoded path and a decoded one answer alike
    assert raw.status == 200 and raw.body["kinds"] == ["isim"]


def test_unknown_and_inflected_words_say_why(call: Any) -> None:
    unknown = call("GET", "/words/zıcvbn", lang="en")
    assert unknown.status == 200
    assert (unknown.body["known"], unknown.body["reason"]) == (False, "not_in_list")
    assert unknown.body["message"] == "ZICVBN is not in the game's dictionary"
    inflected = call("GET", "/words/" + quote("kitapları"))
    assert inflected.status == 200
    assert inflected.body["reason"] == "inflected" and inflected.body["stem"] == "KİTAP"
    assert inflected.body["message"].startswith("KİTAPLARI çekimli")


@pytest.mark.parametrize("word", ["k1tap", "x" * 40, quote("kit ap")])
def test_a_word_that_is_no_word_is_a_bad_request(call: Any, word: str) -> None:
    reply = call("GET", f"/words/{word}")
    assert reply.status == 400
    assert reply.body["error"]["code"] == "bad_request"
    assert reply.body["error"]["message"].startswith("word:")


def test_reports_are_accepted_and_counted(
    api: Any, call: Any, dynamodb: Any, table_names: dict[str, str]
) -> None:
    alice, bob = api.player("Alice"), api.player("Bob")
    path = "/words/" + quote("kitap") + "/reports"
    reply = call("POST", path, {"kind": "wrong"}, token=alice.token)
    assert reply.status == 202 and reply.body == {"word": "KİTAP", "kind": "wrong"}
    assert call("POST", path, {"kind": "wrong"}, token=alice.token).status == 202  # retry
    assert call("POST", path, {"kind": "wrong"}, token=bob.token).status == 202
    assert call("POST", path, {"kind": "missing"}, token=bob.token).status == 202
    counts = _reports_of(dynamodb, table_names, "KİTAP")
    assert (counts["wrong"], counts["missing"], counts["reports"]) == (2, 1, 3)


def test_reports_need_a_token(call: Any, dynamodb: Any, table_names: dict[str, str]) -> None:
    reply = call("POST", "/words/kitap/reports", {"kind": "wrong"})
    assert reply.status == 401 and reply.body["error"]["code"] == "unauthorized"
    assert _reports_of(dynamodb, table_names, "KİTAP") == {}


@pytest.mark.parametrize(
    ("word", "body", "field"),
    [
        ("kitap", {"kind": "silly"}, "kind"),
        ("kitap", {}, "kind"),
        ("kitap", {"kind": "wrong", "extra": 1}, "extra"),
        ("k1tap", {"kind": "wrong"}, "word"),
    ],
)
def test_bad_reports_are_400_and_store_nothing(
    api: Any,
    call: Any,
    dynamodb: Any,
    table_names: dict[str, str],
    word: str,
    body: Any,
    field: str,
) -> None:
    player = api.player()
    before = dynamodb.scan(TableName=table_names["PlayersTable"])["Items"]
    reply = call("POST", f"/words/{word}/reports", body, token=player.token)
    assert reply.status == 400 and reply.body["error"]["code"] == "bad_request"
    assert field in reply.body["error"]["message"]
    assert dynamodb.scan(TableName=table_names["PlayersTable"])["Items"] == before


def test_past_ten_reports_an_hour_is_429_with_retry_after(
    api: Any, call: Any, clock: Any, dynamodb: Any, table_names: dict[str, str]
) -> None:
    player = api.player()
    words = ["kitap", "kalem", "okul", "ev", "ağaç", "çiçek", "şarkı", "gözlük", "alim", "ark"]
    for word in words:
        reply = call("POST", f"/words/{quote(word)}/reports", {"kind": "wrong"}, token=player.token)
        assert reply.status == 202, reply.body
    over = call("POST", "/words/zalim/reports", {"kind": "wrong"}, token=player.token)
    assert over.status == 429 and over.body["error"]["code"] == "rate_limited"
    retry = int(over.headers["Retry-After"])
    assert 0 < retry <= 3600
    assert _reports_of(dynamodb, table_names, "ZALİM") == {}
    clock.advance(retry)
    assert call("POST", "/words/zalim/reports", {"kind": "wrong"}, token=player.token).status == 202


def test_other_methods_are_405_with_allow(call: Any) -> None:
    reply = call("DELETE", "/words/kitap")
    assert reply.status == 405 and reply.headers["Allow"] == "GET"
    reply = call("GET", "/words/kitap/reports")
    assert reply.status == 405 and reply.headers["Allow"] == "POST"

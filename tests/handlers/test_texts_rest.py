"""`GET /texts` (API.md v4): the catalogue of one language with the bounds a client shows,
cacheable by its ETag; an unknown language is a 400 that names the field."""

from __future__ import annotations

from typing import Any

from harftet.bounds import NAME_MAX
from harftet.errors import ERROR_CODES


def texts(api: Any, lang: str, **headers: str) -> Any:
    event = api.event("rest/get-texts", lang=lang)
    for name, value in headers.items():
        event["headers"][name] = value
        event["multiValueHeaders"][name] = [value]
    return api.invoke(event)


def test_each_language_has_a_sentence_for_every_error_code_and_the_bounds(api: Any) -> None:
    tr, en = texts(api, "tr"), texts(api, "en")
    assert tr.status == en.status == 200
    assert tr.body["lang"] == "tr" and en.body["lang"] == "en"
    assert tr.body["version"] == en.body["version"]
    for code in ERROR_CODES:
        assert tr.body["texts"][f"error.{code}"] != en.body["texts"][f"error.{code}"]
    assert tr.body["texts"]["error.not_your_turn"] == "Sıra sende değil"
    assert tr.body["bounds"]["nameMax"] == en.body["bounds"]["nameMax"] == NAME_MAX
    assert tr.body["bounds"]["options"]["seats"] == [2, 4]


def test_a_client_holding_the_current_catalogue_gets_a_304_and_no_body(api: Any) -> None:
    first = texts(api, "tr")
    etag = first.headers["ETag"]
    assert "max-age" in first.headers["Cache-Control"]
    again = texts(api, "tr", **{"If-None-Match": etag})
    assert again.status == 304 and again.raw == ""
    assert texts(api, "en", **{"If-None-Match": etag}).status == 200  # another language


def test_an_unknown_language_is_a_bad_request_naming_the_field(api: Any) -> None:
    for lang in ("de", ""):  # "lang=" too: the document allows tr and en only (issue 35)
        reply = texts(api, lang)
        assert reply.status == 400
        error = reply.body["error"]
        assert error["code"] == "bad_request" and error["field"] == "lang"

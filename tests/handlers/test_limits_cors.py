"""CORS for browser clients on another origin: ALLOWED_ORIGINS (the template's AllowedOrigins)
makes the REST handler answer the CORS headers and the preflight; empty means no CORS."""

from __future__ import annotations

import importlib.util
import sys

import pytest
from testkit import ROOT, Rest, load_event

ORIGINS = "https://harftet.example, https://oyun.example"


@pytest.fixture
def cors_rest(apps, app, monkeypatch) -> Rest:
    """functions/rest/app.py imported again (a cold start) with ALLOWED_ORIGINS set."""
    from harftet import bootstrap

    monkeypatch.setenv("ALLOWED_ORIGINS", ORIGINS)
    bootstrap.settings.cache_clear()  # a cold start reads the environment again
    name = "harftet_handler_rest_cors_app"
    spec = importlib.util.spec_from_file_location(name, ROOT / "functions" / "rest" / "app.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, name, module)
    spec.loader.exec_module(module)
    bootstrap.settings.cache_clear()
    return Rest(module)


def with_origin(name: str, origin: str, **values):
    event = load_event(f"rest/{name}", **values)
    event["headers"]["Origin"] = origin
    event["multiValueHeaders"]["Origin"] = [origin]
    return event


def preflight(path: str, origin: str):
    event = with_origin("health", origin)
    event.update(httpMethod="OPTIONS", path=path, resource="/{proxy+}")
    event["headers"]["Access-Control-Request-Method"] = "POST"
    return event


def test_an_allowed_origin_gets_the_cors_headers_and_its_preflight(cors_rest) -> None:
    reply = cors_rest.invoke(with_origin("health", "https://oyun.example"))
    assert reply.status == 200
    assert reply.headers["Access-Control-Allow-Origin"] == "https://oyun.example"
    answer = cors_rest.invoke(preflight("/tables", "https://harftet.example"))
    assert answer.status == 204
    assert answer.headers["Access-Control-Allow-Origin"] == "https://harftet.example"
    allowed = answer.headers["Access-Control-Allow-Headers"].lower()
    assert "authorization" in allowed and "content-type" in allowed
    assert "POST" in answer.headers["Access-Control-Allow-Methods"]


def test_errors_carry_the_cors_headers_too(cors_rest) -> None:
    reply = cors_rest.invoke(with_origin("get-table", "https://oyun.example", tableId="nope"))
    assert reply.status == 401
    assert reply.headers["Access-Control-Allow-Origin"] == "https://oyun.example"


def test_another_origin_gets_no_cors_headers(cors_rest) -> None:
    reply = cors_rest.invoke(with_origin("health", "https://evil.example"))
    assert reply.status == 200
    assert "Access-Control-Allow-Origin" not in reply.headers


def test_without_allowed_origins_there_is_no_cors(api) -> None:
    reply = api.invoke(with_origin("health", "https://harftet.example"))
    assert "Access-Control-Allow-Origin" not in reply.headers
    answer = api.invoke(preflight("/tables", "https://harftet.example"))
    # OPTIONS is no method of /tables: 405 with Allow, and still no CORS header
    assert answer.status == 405 and answer.headers.get("Allow") == "GET, POST"
    assert "Access-Control-Allow-Origin" not in answer.headers


def test_the_catalogue_is_revalidated_across_origins_if_none_match_allowed_etag_exposed(
    cors_rest,
) -> None:
    """catalogue.js sends If-None-Match and keeps the ETag (GET /texts): across origins a
    browser lets it do so only when the preflight allows the one and the answer exposes the
    other (else every start downloads the whole catalogue again)."""
    answer = cors_rest.invoke(preflight("/texts", "https://harftet.example"))
    assert "if-none-match" in answer.headers["Access-Control-Allow-Headers"].lower()
    reply = cors_rest.invoke(with_origin("health", "https://oyun.example"))
    assert "etag" in reply.headers["Access-Control-Expose-Headers"].lower()

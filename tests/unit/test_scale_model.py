"""bench/scale_model.py: where each quota binds follows from the counted calls per change."""

from __future__ import annotations

import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from bench import scale_model  # noqa: E402

COUNTS = {
    "changes": 900,
    "connections_per_table": 6,
    "rest_requests": 0.5,
    "ws_client_messages": 0.0,
    "ws_posts": 3.5,
    "table_write_units": 1.2,
    "index_write_units": 2.0,
    "lambda_invocations": 2.0,
    "invocations_rest": 0.5,
    "invocations_fanout": 0.8,
    "invocations_timer": 0.6,
    "lambda_ms": 200.0,
    "other_write_units": 1.2,
    "read_units": 1.8,
}


def _binds(counts: dict[str, float], name: str) -> float:
    [quota] = [q for q in scale_model.quotas(counts) if q.name.startswith(name)]
    return quota.binds_at(quota.default)


def test_the_api_gateway_row_is_the_account_rate_over_each_tables_requests():
    tables = _binds(COUNTS, "API Gateway requests")
    assert tables == 10_000 / (0.125 * (0.5 + 0.0 + 3.5))  # 20,000 tables
    more_watchers = {**COUNTS, "ws_posts": 7.0}
    assert _binds(more_watchers, "API Gateway requests") < tables


def test_more_deadline_shards_carry_more_tables_and_the_cell_is_half_the_first_bound(tmp_path):
    few = next(q for q in scale_model.quotas(COUNTS, shards=8) if "deadline-index" in q.name)
    many = next(q for q in scale_model.quotas(COUNTS, shards=64) if "deadline-index" in q.name)
    assert many.binds_at(many.default) == 8 * few.binds_at(few.default)
    _, first, cell = scale_model.rows(COUNTS)
    bounds = [q.binds_at(q.default) for q in scale_model.quotas(COUNTS) if q.aws]
    assert first.binds_at(first.default) == min(bounds)
    assert cell == 0.5 * min(q.binds_at(q.raised) for q in scale_model.quotas(COUNTS))
    path = tmp_path / "counts.json"
    path.write_text(json.dumps({"harftet": COUNTS}))
    text = scale_model.markdown("harftet", path)
    assert f"**First AWS quota to bind with default quotas:** {first.name}" in text
    assert first.name.startswith("API Gateway requests")
    doc = tmp_path / "SCALE.md"
    doc.write_text(f"a\n{scale_model.BEGIN}\nOLD-CONTENT\n{scale_model.END}\nb\n")
    scale_model.write(text, doc)
    assert "OLD-CONTENT" not in doc.read_text() and text in doc.read_text()


def test_moves_syncs_and_pings_each_meet_their_own_routes_throttle():
    counts = {**COUNTS, "ws_client_messages": 0.5, "ws_move": 0.4, "ws_sync": 0.1, "ws_ping": 0.0}
    move = _binds(counts, "Stage throttle: WebSocket `move`")
    assert move == scale_model._parameter("WsMoveRateLimit") / (0.125 * 0.4)
    # pings only after 9 minutes of silence: the row takes every socket silent, the most
    ping = _binds(counts, "Stage throttle: WebSocket `ping`")
    assert ping == scale_model._parameter("WsPingRateLimit") / (6 / (9 * 60))
    chatty = {**counts, "ws_sync": 1.0}
    assert _binds(chatty, "Stage throttle: WebSocket `move`") == move  # syncs take none of it
    assert _binds(chatty, "Stage throttle: WebSocket `sync`") < _binds(
        counts, "Stage throttle: WebSocket `sync`"
    )
    # the one $default route of before, with 25 s pings on every socket
    assert scale_model.former_default_route(counts) == 50 / (0.125 * 0.5 + 6 / 25)

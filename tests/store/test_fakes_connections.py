"""The connections' and the log's fakes (tests/fakes/connections.py, log.py) against
``harftet.store.connections`` and ``harftet.store.log`` over moto: connections found by table
and by player, each player's sockets and presence, a table's events appended idempotently
(tests/store/conftest.py runs each body on both)."""

from __future__ import annotations

from store_kit import NOW


def test_connections_are_found_by_id_table_and_player(stores):
    connections = stores.connections
    connections.add("c1", "t1", "p0", NOW + 0.1234)
    connections.add("c2", "t1", "p1", NOW)
    connections.add("c3", "", "p0", NOW)  # the player's own lobby socket
    found = connections.get("c1")
    assert found is not None and found["tableId"] == "t1" and found["playerId"] == "p0"
    assert float(found["connectedAt"]) == round(NOW + 0.1234, 3)  # to the millisecond
    assert connections.get("nope") is None and "tableId" not in (connections.get("c3") or {})
    by_table = sorted((c["connectionId"], c["playerId"]) for c in connections.for_table("t1"))
    assert by_table == [("c1", "p0"), ("c2", "p1")] and connections.for_table("t2") == []
    mine = sorted(connections.for_player("p0"), key=lambda c: str(c["connectionId"]))
    assert mine == [
        {"connectionId": "c1", "playerId": "p0", "tableId": "t1"},
        {"connectionId": "c3", "playerId": "p0"},
    ]  # the player index: keys and the table only


def test_a_removed_connection_is_gone_once_and_leaves_its_players_sockets(stores):
    connections = stores.connections
    connections.add("c1", "t1", "p0", NOW)
    connections.add("c2", "", "p0", NOW)
    assert connections.sockets("p0") == {"c1": "t1", "c2": ""}
    removed = connections.remove("c1")
    assert removed is not None and removed["tableId"] == "t1"
    assert connections.remove("c1") is None
    assert connections.sockets("p0") == {"c2": ""} and connections.for_table("t1") == []
    assert connections.sockets("nobody") == {}


def test_many_players_sockets_leave_out_those_with_none(stores):
    connections = stores.connections
    connections.add("a1", "t1", "a", NOW)
    connections.add("b1", "", "b", NOW)
    connections.add("c1", "", "c", NOW)
    connections.remove("c1")
    found = connections.sockets_of(["a", "b", "c", "d", "a"])
    assert found == {"a": {"a1": "t1"}, "b": {"b1": ""}}
    assert connections.sockets_of([]) == {}


def test_the_presence_announced_is_swapped_and_forgotten(stores):
    connections = stores.connections
    assert connections.swap_presence("p0", "online", NOW) is None
    assert connections.swap_presence("p0", "away", NOW) == "online"
    connections.add("c1", "t1", "p0", NOW)
    assert connections.swap_presence("p0", "away", NOW) == "away"  # kept beside the sockets
    connections.forget_presence("p0")
    assert connections.sockets("p0") == {} and connections.sockets_of(["p0"]) == {}
    assert connections.swap_presence("p0", "online", NOW) is None
    assert connections.get("c1") is not None  # the connection itself is not the presence


def test_a_tables_events_are_appended_once_per_seq_and_read_after_one(stores):
    log = stores.log
    events = [{"seq": n, "type": "draw", "at": NOW + n, "şey": "ğ"} for n in range(1, 6)]
    log.append("t1", events[:3])
    log.append("t1", events[1:])  # delivered again, with more
    log.append("t2", [{"seq": 1, "type": "sit"}])
    assert log.after("t1", 0) == events
    assert log.after("t1", 3) == events[3:] and log.after("t1", 5) == []
    assert log.after("t1", 1, limit=2) == events[1:3]
    assert log.after("t3", 0) == [] and [e["type"] for e in log.after("t2", 0)] == ["sit"]

"""``GET /players/me/export`` holds everything stored about the caller (KVKK / GDPR): a
player plays a game, reports a seat, has a friend and a block, a push subscription, a device,
an inbox and an open socket; then every item of every DynamoDB table that names them is
found by a scan here and must show up in their export — except what is deliberately out,
each with its reason."""

from __future__ import annotations

import json
from typing import Any

from service_helpers import full_table, player
from testkit import scan_all

from harftet.engine.effects import changed
from harftet.engine.scoring import settle
from harftet.notify.deliver import MobilePush

P256, AUTH = "BN" + "A" * 85, "A" * 22  # a PushSubscription's keys (shape only)


class Sns:
    """SNS's create_platform_endpoint, answered."""

    def create_platform_endpoint(self, **_: Any) -> dict[str, str]:
        return {"EndpointArn": "arn:sns:x"}


def test_every_item_stored_about_a_player_is_in_their_export(dynamodb, clock, outbox):
    from testkit import TABLE_NAMES, app_over, with_mail

    names = with_mail(dynamodb, TABLE_NAMES)
    app = app_over(dynamodb, names, clock, send=outbox, mail=True)
    app.mobile = MobilePush(Sns(), {"fcm": "arn:sns:app/fcm"})
    accounts, people = app.accounts, app.friends
    table_id, (ayse, ali) = full_table(app, seats=2, hands=1)  # each sit notes the table

    def finish(table, now):
        new = table.clone()
        new.recent = []
        for seat, penalty in zip(new.seats, [10, 40], strict=True):
            seat.penalty = penalty
        new.status = "finished"
        return changed(new, settle(new))

    app.writer.write(table_id, finish)  # profile and board entries, in the table's transaction
    stored = app.stores.tables.get(table_id)
    app.inbox.record(stored.table, stored.version, clock.now)
    app.moderation.report(ayse.player_id, table_id, 1, "insult")
    app.moderation.report(ali.player_id, table_id, 0, "other")  # about Ayşe, by Ali
    veli, trol = player(app, "Veli"), player(app, "Trol")
    people.request(ayse, people.friends(veli)["code"])
    people.accept(veli, ayse.player_id)
    people.block(ayse, trol.player_id)
    people.block(trol, ayse.player_id)  # Trol's choice: not Ayşe's to read
    app.subscriptions.resolve = lambda host: ["1.2.3.4"]
    sub = {"endpoint": "https://push.example.com/s/1", "keys": {"p256dh": P256, "auth": AUTH}}
    app.subscriptions.subscribe(ayse, sub, "tr")
    app.subscriptions.add_device(
        ayse, {"platform": "fcm", "token": "device-token-0123456789abcdef"}
    )
    app.sockets.connect(ayse, table_id, "ayse-socket")
    accounts.transfer_code(ayse)

    export = app.data.export(ayse)
    text = json.dumps(export, ensure_ascii=False)
    me = ayse.player_id
    found: list[tuple[str, str]] = []
    for logical, name in [*TABLE_NAMES.items(), ("MailTable", "harftet-mail")]:
        for item in scan_all(dynamodb, name):
            if me in json.dumps(item, default=repr):
                key = {"ConnectionsTable": "connectionId", "MailTable": "sk"}.get(
                    logical, "playerId" if logical == "PlayersTable" else "tableId"
                )
                found.append((logical, str(item[key])))
    kinds: set[str] = set()
    for logical, key in found:
        if logical == "PlayersTable":
            if key == me:
                assert export["player"]["name"] == "Oyuncu0" and export["player"]["friends"]
                kinds.add("player")
            elif key.startswith("profile#"):
                assert export["profile"]["history"][0]["tableId"] == table_id
                assert export["profile"]["counters"]["played_kastet"] == 1
                kinds.add("profile")
            elif key.startswith("board#"):
                _, game, period, _ = key.split("#")
                assert {"game": game, "period": period} in [
                    {k: b[k] for k in ("game", "period")} for b in export["boards"]
                ]
                kinds.add("board")
            elif key.startswith("filed#"):
                (filed,) = export["reportsFiled"]
                assert filed["tableId"] == table_id and filed["kind"] == "insult"
                kinds.add("filed")
            elif key.startswith("report#"):
                players = scan_all(dynamodb, TABLE_NAMES["PlayersTable"])
                item = next(i for i in players if i["playerId"] == key)
                if item["reporter"] == me:
                    assert item["reportId"] in text
                    kinds.add("report filed")
                else:  # about her, filed by Ali: the operator's record, never shown to her
                    assert item["reported"] == me and item["reportId"] not in text
            elif key.startswith(("friendcode#", "transfer#")):
                assert key.split("#", 1)[1] in text  # her friend code, her transfer code
                kinds.add(key.split("#")[0])
            elif key.startswith("lgp#"):  # her place in the game's league
                _, game, _ = key.split("#")
                (mine,) = [g for g in export["leagues"] if g["game"] == game]
                assert mine["tier"] and mine["division"] and mine["week"]
                kinds.add("league place")
            elif key.startswith("lgd#"):  # a division: her own entry, not the others'
                _, game, week, division = key.split("#")
                (mine,) = [g for g in export["leagues"] if g["game"] == game]
                (entry,) = [
                    d for d in mine["divisions"] if (d["week"], d["division"]) == (week, division)
                ]
                assert entry["name"] == "Oyuncu0" and entry["g"] == 1
                assert ali.player_id not in json.dumps(mine)
                kinds.add("league division")
            elif key in (veli.player_id, trol.player_id):
                assert key in text if key == veli.player_id else True  # friends, blocks
                kinds.add("others' lists")
            else:
                raise AssertionError(f"an item the export does not know: {key}")
        elif logical == "ConnectionsTable":
            if key.startswith("presence#"):
                continue  # derived from her connections, which the export lists
            if key == "ayse-socket":
                assert export["connections"] == [{"tableId": table_id, "connectedAt": clock.now}]
                kinds.add("connection")
            # else a rate-limit counter (transfer codes asked for): a few minutes' budget
        elif logical == "MailTable":
            prefix = key.split("#")[0]
            section = {"table": "inbox", "push": "pushSubscriptions", "device": "devices"}
            section |= {"prefs": "notificationPrefs"}
            assert key in [e["key"] for e in export[section[prefix]]], key
            kinds.add(section[prefix])
        else:  # the table itself and its log: the export lists the table
            assert logical in ("TablesTable", "LogTable") and table_id in export["tables"]
            kinds.add("table")
    assert kinds >= {
        "player", "profile", "board", "filed", "report filed", "friendcode", "transfer",
        "connection", "inbox", "pushSubscriptions", "devices", "notificationPrefs",
        "league place", "league division",
    }  # fmt: skip
    assert export["tables"] == [table_id]  # the table's item is encoded: no id to scan for
    assert P256 not in text and AUTH not in text and "device-token-0123456789abcdef" not in text
    assert "arn:sns" not in text  # a push credential is not data about her

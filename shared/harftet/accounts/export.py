"""What ``GET /players/me/export`` adds to the player item (harftet.accounts.service): every
other item stored about the caller, each read by its key or its partition — no scan.

- ``profile``: counters and the history of `harftet.history` (``profile#<id>``);
- ``boards``: the caller's leaderboard entries (all-time and the weeks not yet expired);
- ``reportsFiled``: the reports the caller filed (``filed#<id>``; reports *about* the caller
  are an operator's record and stay out, as ``blockedBy`` does);
- the mail table's partition of the caller: ``inbox`` (``table#``), ``pushSubscriptions``
  (``push#``), ``devices`` (``device#``), ``notificationPrefs`` and ``notificationsSent``;
- ``connections``: open WebSocket connections (their table and when they opened).

Left out, as secrets rather than data about the player: a push subscription's ``p256dh`` and
``auth`` keys and a device's token (whoever holds an export could push to that browser or
phone), as the refresh nonces and transfer codes are.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from harftet import history
from harftet.store.items import deserialize

if TYPE_CHECKING:
    from harftet.service import Service

SECRET_FIELDS = {"p256dh", "auth", "token", "endpointArn", "playerId", "sk"}
MAIL_KINDS = {
    "table#": "inbox",
    "push#": "pushSubscriptions",
    "device#": "devices",
    "prefs": "notificationPrefs",
    "sent#": "notificationsSent",
}


def _plain(value: Any) -> Any:
    from harftet.accounts.service import _jsonable
    from harftet.store.accounts import plain

    return _jsonable(plain(value))


def stored_about(service: Service, player_id: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    people = getattr(service.players, "people", None)
    if people is not None:
        profile = people.profile(player_id, consistent=True) or {}
        out["profile"] = {
            "counters": {k: _plain(v) for k, v in profile.items() if k not in ("playerId", "h")},
            "history": [
                {"at": e.at, "delta": e.delta, "game": e.game, "tableId": e.table_id or None}
                | ({"won": e.won} if e.is_game else {})
                for e in history.of_profile(profile)
            ],
        }
        out["boards"] = [
            {k: _plain(item[k]) for k in ("game", "period", "score", "name") if k in item}
            for item in people.entries_of(player_id, service.clock())
        ]
        out["reportsFiled"] = _plain(people.filed(player_id))
    out.update(_mail(service, player_id))
    out["connections"] = []
    for listed in service.connections.for_player(player_id):  # the index holds the keys only
        c = service.connections.get(str(listed["connectionId"])) or listed
        out["connections"].append(
            {"tableId": c.get("tableId") or None, "connectedAt": _plain(c.get("connectedAt"))}
        )
    return out


def _mail(service: Service, player_id: str) -> dict[str, Any]:
    inbox = service.inbox
    found: dict[str, Any] = {kind: [] for kind in MAIL_KINDS.values()}
    if inbox is None:
        return found
    client, name = inbox._client, inbox._name
    kwargs: dict[str, Any] = {
        "TableName": name,
        "KeyConditionExpression": "playerId = :p",
        "ExpressionAttributeValues": {":p": {"S": player_id}},
        "ConsistentRead": True,
    }
    while True:
        page = client.query(**kwargs)
        for raw in page.get("Items", []):
            item = deserialize(raw)
            sk = str(item.get("sk", ""))
            kind = next((k for p, k in MAIL_KINDS.items() if sk.startswith(p)), "other")
            entry = {k: _plain(v) for k, v in item.items() if k not in SECRET_FIELDS}
            entry["key"] = sk
            found.setdefault(kind, []).append(entry)
        if "LastEvaluatedKey" not in page:
            return found
        kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]

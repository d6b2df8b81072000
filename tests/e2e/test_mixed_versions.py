"""A deploy's canary on the local stack (docs/DEPLOY.md "State that migrates"): the stack runs
as the release before (TABLE_WRITE_FORMAT=1: its functions write table format 1) while this
release's code (format 2) moves on the same tables through the same DynamoDB; players' moves
alternate between the two to the game's end. 0 failed moves; each side read the other's."""

from __future__ import annotations

import uuid
from typing import Any

import boto3
import httpx

from harftet.bootstrap import App, DynamoStores, Settings
from harftet.engine.moves import Draw, Pass
from harftet.identity import Tokens

HAND_LIMIT = 22


def test_old_and_new_code_play_one_table_side_by_side(stack_factory: Any) -> None:
    stack = stack_factory("mixed", env={"TABLE_WRITE_FORMAT": "1"})
    env = stack.env
    client = boto3.client(
        "dynamodb", endpoint_url=stack.dynamodb_endpoint, region_name="us-east-1",
        aws_access_key_id="local", aws_secret_access_key="local",
    )  # fmt: skip
    settings = Settings(
        tables_table=env["TABLES_TABLE"], players_table=env["PLAYERS_TABLE"],
        connections_table=env["CONNECTIONS_TABLE"], test_mode=True,
    )  # fmt: skip
    new = App(settings, DynamoStores(client, settings), signer=Tokens(env["TOKEN_SECRET"]))
    assert new.stores.tables.write_format == 2
    http = httpx.Client(base_url=stack.base_url, timeout=30)

    def post(path: str, body: Any, token: str | None = None) -> httpx.Response:
        headers = {"authorization": f"Bearer {token}"} if token else {}
        return http.post(path, json=body, headers=headers)

    tokens = [post("/players", {"name": n}).json()["token"] for n in ("Eski", "Yeni")]
    body = {"game": "kastet", "seats": 2, "hands": 1, "private": True}
    table_id = post("/tables", body, tokens[0]).json()["tableId"]
    assert post(f"/tables/{table_id}/seats/1", None, tokens[1]).status_code == 200
    view = post(f"/tables/{table_id}/start", None, tokens[0]).json()
    formats: set[int] = set()
    failed = moves = 0
    while view["status"] == "playing" and moves < 200:
        seat = view["turn"]["seat"]
        mine = http.get(f"/tables/{table_id}", headers={"authorization": f"Bearer {tokens[seat]}"})
        kind = "pass" if len(mine.json()["hand"]) >= HAND_LIMIT else "draw"
        move_id = uuid.uuid4().hex
        if moves % 2 == 0:  # the release before, through the stack's REST function
            move = {"version": view["version"], "moveId": move_id, "type": kind}
            answer = post(f"/tables/{table_id}/moves", move, tokens[seat])
            failed += answer.status_code != 200
            view = answer.json() if answer.status_code == 200 else view
        else:  # this release, on the same table
            caller = new.tokens.verify(tokens[seat])
            try:
                view = new.tables.move(
                    caller, table_id, view["version"], move_id, Pass() if kind == "pass" else Draw()
                )
            except Exception:
                failed += 1
        item = client.get_item(TableName=env["TABLES_TABLE"], Key={"tableId": {"S": table_id}})
        formats.add(item["Item"]["state"]["B"][0])
        moves += 1
    assert failed == 0 and moves > 10
    assert view["status"] == "finished"  # played to its end (draws to the hand limit, passes)
    assert formats == {1, 2}

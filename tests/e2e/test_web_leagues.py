"""The weekly league screen of the web client (clients/web/leagues.js) in Chromium, at a
phone's and a desktop's size: from the lobby, a player with no rated game this week reads how
to enter; once their division holds them (as the week's game ends leave it: their place and
their division of 30, written to the stack's DynamoDB), the league dialog shows their tier and
division, the time left in the week, who goes up and who goes down, their own row marked, a
deleted player in the catalogue's words, in Turkish and in English on the switch.
Screenshots: league-<size>*.png (see SCREENS)."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import boto3
import pytest
from boto3.dynamodb.types import TypeSerializer
from test_web_client import DESKTOP, PHONE, Tab, browser, expect  # noqa: F401 - the fixture

from harftet.leagues.weeks import week_of
from harftet.localstack.launcher import RunningStack

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
SCREENS = ROOT / ("docs/screens" if os.environ.get("HARFTET_SCREENS") == "1" else ".artifacts/web")
GONE = 20  # the 21st place: a deleted player
NAMES = ["Ece", "Mert", "Zeynep", "Deniz", "Elif", "Kaan", "Selin", "Emre", "Aslı", "Burak"]


def seed_division(stack: RunningStack, player_id: str, name: str) -> None:
    """The caller 7th of 30 in Gümüş division 3 this week, as rated games leave it."""
    week = week_of(time.time())
    members = {}
    for i in range(30):
        pid = player_id if i == 6 else f"c0.seed{i:02d}"
        who = name if i == 6 else f"{NAMES[i % 10]} {chr(65 + i // 10)}."
        if i == GONE:  # a deleted player's anonymous seat, as the server names it (in Turkish)
            pid, who = "deleted-00aa11bb22cc33dd", "Silinmiş oyuncu"
        members[pid] = {"name": who, "pts": 120 - 8 * i, "g": 3 + i % 4, "at": 1000 + i}
    items = [
        {"playerId": f"lgd#harftet#{week}#gumus-3", "tier": "gumus", "m": members, "v": 30},
        {"playerId": f"lgp#harftet#{player_id}", "week": week, "tier": "gumus",
         "division": "gumus-3"},
    ]  # fmt: skip
    dynamodb = boto3.client(
        "dynamodb", endpoint_url=stack.dynamodb_endpoint, region_name="us-east-1",
        aws_access_key_id="local", aws_secret_access_key="local",
    )  # fmt: skip
    ser = TypeSerializer()
    for item in items:
        dynamodb.put_item(
            TableName=stack.env["PLAYERS_TABLE"],
            Item={k: ser.serialize(v) for k, v in item.items()},
        )


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_my_division_shows_who_goes_up_and_down_and_the_time_left(
    browser,  # noqa: F811
    local_stack,
    local_stack_info,
    size,
):
    tab = Tab(browser, local_stack, size=size)
    tab.sign_in("Ayşe")
    page = tab.page
    page.locator(".league-open").click()
    dialog = page.locator("dialog.league")
    expect(dialog.locator(".league-none")).to_contain_text("Bu hafta henüz dereceli oyun oynamadın")
    session = json.loads(page.evaluate("() => localStorage.getItem('harftet.session')"))
    seed_division(local_stack_info, session["playerId"], "Ayşe")
    dialog.get_by_role("button", name="Kastet").click()
    dialog.get_by_role("button", name="Harftet").click()
    expect(dialog.locator(".league-division")).to_have_text("Gümüş · 3. grup")
    expect(dialog.locator(".league-left")).to_contain_text("Haftanın bitmesine")
    expect(dialog.locator(".league-rules")).to_have_text(
        "İlk 5 bir üst lige çıkar, son 5 bir alt lige düşer."
    )
    rows = dialog.locator(".league-standings li")
    expect(rows).to_have_count(30)
    expect(rows.nth(0).locator(".move")).to_have_text("Yükseliyor")
    expect(rows.nth(29).locator(".move")).to_have_text("Düşüyor")
    mine = dialog.locator(".league-standings li.me")
    expect(mine).to_contain_text("Ayşe (Sen)")
    expect(mine.locator(".move")).to_have_text("Kalıyor")
    expect(mine.locator(".rank")).to_have_text("7.")
    gone = rows.nth(GONE)
    expect(gone.locator(".name")).to_have_text("Silinmiş oyuncu")
    expect(gone.get_by_role("button")).to_have_count(0)  # no profile to open
    tab.axe("league dialog")  # no serious or critical violation
    SCREENS.mkdir(parents=True, exist_ok=True)
    name = "phone" if size == PHONE else "desktop"
    page.screenshot(path=str(SCREENS / f"league-{name}.png"), full_page=False)
    rows.nth(29).scroll_into_view_if_needed()  # the bottom five, going down
    expect(rows.nth(25).locator(".move")).to_have_text("Düşüyor")
    page.screenshot(path=str(SCREENS / f"league-{name}-bottom.png"), full_page=False)
    own = dialog.locator(".dialog-head .lang-switch")  # the header's is inert behind the dialog
    expect(own).to_have_text("English")
    own.click()  # English on the dialog's own switch, the dialog open
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(own).to_be_focused()
    expect(own).to_have_text("Türkçe")
    expect(dialog.locator("#league-h")).to_have_text("Weekly league")
    expect(dialog.locator(".league-division")).to_have_text("Silver · division 3")
    expect(mine.locator(".move")).to_have_text("Staying")
    expect(gone.locator(".name")).to_have_text("Deleted player")  # not the stored Turkish name
    tab.axe("league dialog in English")
    page.screenshot(path=str(SCREENS / f"league-{name}-en.png"), full_page=False)
    dialog.get_by_role("button", name="Close").click()
    expect(page.locator(".league-open")).to_have_text("League")  # the lobby followed
    assert not tab.unexpected_errors()

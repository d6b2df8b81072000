"""Issue 36's journeys that were still missing, in Chromium on one local stack (the module's),
each played from the client's first screen as a person would, at 390×844 and 1280×800, in
Turkish and then in English on the header's switch: hints used down to zero, the break between
two hands, the word card of a laid word and a report, the leaderboards, the export of one's data
and the deletion of one's account. Every screen visited goes through `journey.look` (axe of any
impact, no sideways scroll, nothing under the dock, words of the catalogue only, a screenshot
`<journey>-<screen>-<phone|desktop>[-en].png`, in docs/screens/ with HARFTET_SCREENS=1)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from boto3.dynamodb.types import TypeSerializer
from journey import look, switch_language
from test_web_client import (  # noqa: F401 (browser: the module's fixture)
    DESKTOP,
    PHONE,
    Tab,
    browser,
    expect,
    lay_something,
)
from test_web_replay import finish_an_unseeded_game

from harftet.localstack.launcher import RunningStack
from harftet.store.profiles import shard_of, week_key
from harftet.texts import catalogue

pytestmark = pytest.mark.e2e

SIZES = pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
TR, EN = catalogue("tr"), catalogue("en")


@pytest.fixture(scope="module")
def stack(stack_factory: Any) -> Iterator[RunningStack]:
    """The module's stack, shared by its journeys (each plays its own players and tables)."""
    yield stack_factory("journeys")


def base(stack: RunningStack) -> str:
    # localhost, not 127.0.0.1: the account dialog's passkeys need a registrable domain
    return stack.base_url.replace("127.0.0.1", "localhost")


def start_a_table(tab: Tab, hands: int = 1, seats: int = 2) -> None:
    """The new-table form as a person fills it: Harftet, computer players in the empty seats."""
    tab.create_table("harftet", seats=seats, hands=hands, bots=True, pace="Hızlı")
    tab.start()


@SIZES
def test_hints_used_down_to_zero_then_the_button_says_why_it_is_off(
    stack: RunningStack,
    browser: Any,  # noqa: F811
    size: tuple[int, int],
) -> None:
    tab = Tab(browser, base(stack), size, seed=11)
    page = tab.page
    tab.sign_in("Deniz")
    start_a_table(tab)
    hint = page.locator("#btn-hint")
    for left in (2, 1, 0):
        tab.wait_for_my_turn_or_end()
        hint.click()
        expect(hint).to_have_text(TR["hints.left"].format(n=left))
        expect(page.locator("#notice-text")).to_contain_text("İpucu")
        if left == 2:
            look(tab, "hints-shown", data=["Deniz"])
        tab.button("Geri al").click()
        expect(page.locator("#draft-flag")).to_be_hidden()
    expect(hint).to_be_disabled()  # aria-disabled: off, and still tappable for its reason
    expect(hint).to_have_attribute("title", TR["notice.noHintsLeft"])  # on hover
    expect(hint).to_have_attribute("aria-description", TR["notice.noHintsLeft"])
    hint.click(force=True)  # a tap on a phone, where no title shows: the reason, said
    expect(page.locator("#notice-text")).to_have_text(TR["notice.noHintsLeft"])
    look(tab, "hints-none-left", data=["Deniz"])
    switch_language(tab, "en")
    expect(hint).to_have_text(EN["hints.left"].format(n=0))
    expect(hint).to_have_attribute("title", EN["notice.noHintsLeft"])
    hint.click(force=True)
    expect(page.locator("#notice-text")).to_have_text(EN["notice.noHintsLeft"])
    look(tab, "hints-none-left", "en", data=["Deniz"])
    switch_language(tab, "tr")
    assert tab.unexpected_errors() == [], tab.errors
    tab.close()


def play_the_hand_out(tab: Tab, budget_s: float = 90) -> None:
    """Draw, or pass when drawing is shut, until the hand's end dialog opens."""
    deadline = time.monotonic() + budget_s
    while not tab.ended():
        assert time.monotonic() < deadline, "the hand did not end in time"
        tab.wait_for_my_turn_or_end()
        if tab.ended():
            break
        version = tab.version()
        tab.button("Taş çek" if tab.button("Taş çek").is_enabled() else "Pas").click()
        tab.wait_for_version_after(version)


@SIZES
def test_the_break_between_two_hands_is_asked_for_and_ends_with_the_next_deal(
    stack: RunningStack,
    browser: Any,  # noqa: F811
    size: tuple[int, int],
) -> None:
    """RULES §2a: the first hand's end dialog holds the break (its heading order checked by
    axe) and its own language switch (the header's is out of reach behind it), "Sonraki el"
    says the player is ready, and the next hand is dealt."""
    tab = Tab(browser, base(stack), size, seed=11)
    page = tab.page
    tab.sign_in("Berk")
    start_a_table(tab, hands=2, seats=4)
    play_the_hand_out(tab)
    dialog = page.locator("#end-dialog")
    expect(dialog.locator("#end-h")).to_have_text(TR["end.hand.h"].format(n=1))
    expect(dialog.locator("#end-break")).to_contain_text("Sonraki el")
    view = tab.api("GET", f"/tables/{tab.table_id()}")["body"]
    assert view["handNumber"] == 1 and view["turn"] is None and view["break"]["ready"] == []
    names = ["Berk"]
    look(tab, "break-hand-end", data=names)
    # the header's switch is inert behind the modal dialog: the dialog has its own
    inside = dialog.get_by_role("button", name=TR["lang.switch"])
    expect(inside).to_be_visible()
    inside.click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(dialog.locator("#end-h")).to_have_text(EN["end.hand.h"].format(n=1))
    expect(dialog.locator("#end-break")).to_contain_text("Next hand")
    expect(dialog.get_by_role("button", name=EN["end.next"])).to_be_visible()
    look(tab, "break-hand-end", "en", data=names)
    dialog.get_by_role("button", name=EN["lang.switch"]).click()
    expect(dialog.locator("#end-h")).to_have_text(TR["end.hand.h"].format(n=1))
    dialog.get_by_role("button", name=TR["end.next"]).click()  # ready: the break ends
    expect(dialog).to_be_hidden()
    expect(page.locator("#table-status")).to_contain_text("El 2/2")
    expect(tab.rack()).not_to_have_count(0)
    look(tab, "break-next-hand", data=names)
    switch_language(tab, "en")
    expect(page.locator("#table-status")).to_contain_text("Hand 2 of 2")
    look(tab, "break-next-hand", "en", data=names)
    switch_language(tab, "tr")
    assert tab.unexpected_errors() == [], tab.errors
    tab.close()


@SIZES
def test_a_laid_word_opens_its_card_and_is_reported(
    stack: RunningStack,
    browser: Any,  # noqa: F811
    size: tuple[int, int],
) -> None:
    """The "?" of a word on the table opens its card (known, its kinds and how many
    dictionaries hold it: no package names), "Yanlış kelime bildir" files a report and thanks
    the player; in English the card's words follow the switch."""
    tab = Tab(browser, base(stack), size, seed=11)
    page = tab.page
    tab.sign_in("Ayşe")
    start_a_table(tab)
    laid = lay_something(tab, "harftet")
    word = page.locator(f'#series li.meld:has(.tile[data-id="{laid[0]}"]) button.word-info')
    expect(word).to_have_count(1)
    word.click()
    card = page.locator("#word-card")
    expect(card).to_contain_text(TR["wc.known"])
    expect(card).not_to_contain_text("null")
    spelled = card.locator(".wc-word").inner_text()
    data = ["Ayşe", spelled]
    look(tab, "wordcard-open", data=data)
    with page.expect_response(lambda r: r.url.endswith("/reports")) as sent:
        card.get_by_role("button", name=TR["wc.wrong"]).click()
    assert sent.value.status == 202
    expect(card.locator(".wc-note")).to_have_text(TR["wc.thanks"])
    look(tab, "wordcard-reported", data=data)
    own = card.locator(".dialog-head .lang-switch")  # the card's own switch, beside its word
    expect(own).to_have_text(TR["lang.switch"])
    own.click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(own).to_be_focused()  # the card is drawn again in place: the focus stays on the switch
    expect(own).to_have_text(EN["lang.switch"])
    expect(card.locator(".wc-note")).to_have_text(EN["wc.thanks"])  # the report's outcome kept
    expect(card).to_contain_text(EN["wc.known"])
    expect(card.get_by_role("button", name=EN["btn.close"])).to_be_visible()
    look(tab, "wordcard-open", "en", data=data)
    card.get_by_role("button", name=EN["btn.close"]).click()
    expect(card).to_be_hidden()
    switch_language(tab, "tr")
    assert tab.unexpected_errors() == [], tab.errors
    tab.close()


OTHERS = ["Ece", "Mert", "Zeynep", "Kaan", "Elif", "Burak", "Aslı", "Emre"]


def seed_boards(stack: RunningStack, player_id: str, name: str) -> None:
    """This week's and the all-time Harftet boards as rated games leave them: eight players,
    one deleted (no name kept), and the caller fourth."""
    week = week_key(time.time())
    rows: list[tuple[str, str | None, int]] = [
        (f"c0.board{i:02d}", who, 40 - 4 * i) for i, who in enumerate(OTHERS)
    ]
    rows.insert(3, (player_id, name, 29))
    rows.append(("c0.boardgone", None, 2))  # a deleted player's entry keeps no name
    dynamodb = boto3.client(
        "dynamodb", endpoint_url=stack.dynamodb_endpoint, region_name="us-east-1",
        aws_access_key_id="local", aws_secret_access_key="local",
    )  # fmt: skip
    ser = TypeSerializer()
    for pid, who, points in rows:
        for period, score in ((week, points), ("all", points)):  # all: shown + 1000
            item = {"playerId": f"board#harftet#{period}#{pid}", "pid": pid, "score": score,
                    "board": f"harftet#{period}#{shard_of(pid)}"}  # fmt: skip
            if who:
                item["name"] = who
            dynamodb.put_item(
                TableName=stack.env["PLAYERS_TABLE"],
                Item={k: ser.serialize(v) for k, v in item.items()},
            )


@SIZES
def test_the_leaderboards_of_the_week_and_of_all_time_and_a_profile(
    stack: RunningStack,
    browser: Any,  # noqa: F811
    size: tuple[int, int],
) -> None:
    """From the lobby's "Sıralama": this week's board in points, the all-time board in rating
    (derece), the player's own row marked, a deleted player named as such (never "null", never
    a link to a profile that cannot load), a
    profile opened from a name and back; in English on the switch."""
    tab = Tab(browser, base(stack), size)
    page = tab.page
    tab.sign_in("Selin")
    me = json.loads(page.evaluate("localStorage.getItem('harftet.session')"))["playerId"]
    seed_boards(stack, me, "Selin")
    names = ["Selin", *OTHERS]
    page.get_by_role("button", name=TR["people.open"]).click()
    dialog = page.locator("dialog.people")
    board = dialog.locator(".people-board li")
    expect(board.first).to_contain_text("Ece")
    expect(board.first).to_contain_text(TR["people.score.week"].format(n=40))
    mine = dialog.locator(".people-board li.me")
    expect(mine).to_contain_text(TR["people.you"].format(name="Selin"))
    expect(dialog.locator(".people-board")).to_contain_text(TR["player.deleted"])
    gone = board.filter(has_text=TR["player.deleted"])
    expect(gone.locator(".deleted")).to_have_text(TR["player.deleted"])
    expect(gone.get_by_role("button")).to_have_count(0)  # no link to a profile that cannot load
    expect(dialog).not_to_contain_text("null")
    look(tab, "leaderboard-week", data=names)
    dialog.get_by_role("button", name=TR["people.all"]).click()
    expect(board.first).to_contain_text(TR["people.score.all"].format(n=1040))
    look(tab, "leaderboard-all", data=names)
    mine.get_by_role("button").click()  # her own profile
    expect(dialog.locator("h3")).to_have_text("Selin")
    expect(dialog).to_contain_text(TR["people.rating"].format(n=1000))
    expect(dialog).to_contain_text(TR["people.recent.none"])  # not a heading over nothing
    look(tab, "leaderboard-profile", data=names)
    dialog.get_by_role("button", name=TR["people.back"]).click()
    expect(mine).to_be_visible()
    switch_language(tab, "en")  # the dialog's own switch: the header's is inert behind it
    expect(dialog.locator(".dialog-head .lang-switch")).to_be_focused()
    expect(dialog.locator(".dialog-head .lang-switch")).to_have_text(EN["lang.switch"])
    expect(dialog.locator("#people-h")).to_have_text(EN["people.title"])
    expect(board.first).to_contain_text(EN["people.score.all"].format(n=1040))
    expect(dialog.locator(".people-board")).to_contain_text(EN["player.deleted"])
    expect(board.filter(has_text=EN["player.deleted"]).get_by_role("button")).to_have_count(0)
    look(tab, "leaderboard-all", "en", data=names)
    dialog.get_by_role("button", name=EN["people.week"]).click()
    expect(board.first).to_contain_text(EN["people.score.week"].format(n=40))
    look(tab, "leaderboard-week", "en", data=names)
    dialog.get_by_role("button", name=EN["btn.close"]).click()
    switch_language(tab, "tr")
    assert tab.unexpected_errors() == [], tab.errors
    tab.close()


def keys_of(data: Any) -> set[str]:
    """Every key anywhere in a JSON value."""
    if isinstance(data, dict):
        return set(data).union(*(keys_of(v) for v in data.values()))
    if isinstance(data, list):
        return set().union(*(keys_of(v) for v in data))
    return set()


def tiles_in(data: Any) -> list[Any]:
    """Every tile-like value anywhere in a JSON value (a letter, or a colour and a number)."""
    if isinstance(data, list):
        return [t for v in data for t in tiles_in(v)]
    if not isinstance(data, dict):
        return []
    mine = [data] if "letter" in data or {"color", "number"} <= set(data) else []
    return mine + [t for v in data.values() for t in tiles_in(v)]


def download_my_data(tab: Tab, lang: str) -> Any:
    """ "Verilerimi indir" in the open account dialog: the file saved, named from the catalogue."""
    texts = TR if lang == "tr" else EN
    with tab.page.expect_download() as saved:
        tab.page.get_by_role("button", name=texts["acc.export"]).click()
    assert saved.value.suggested_filename == texts["acc.export.file"]
    return json.loads(open(saved.value.path(), encoding="utf-8").read())


@SIZES
def test_my_data_downloaded_then_my_account_deleted_and_the_old_session_refused(
    stack: RunningStack,
    browser: Any,  # noqa: F811
    size: tuple[int, int],
) -> None:
    """The account dialog from the header: "Verilerimi indir" saves the player's own data
    (her name, her tables; no other player's hand, no pile, no seed), "Hesabımı sil" asks
    first (no: nothing changes), then deletes; the old session's token and refresh token get
    401 and the client is back at its first screen."""
    ayse = Tab(browser, base(stack), size)
    page = ayse.page
    ayse.sign_in("Ayşe")
    ali = Tab(browser, base(stack), size)
    ali.sign_in("Ali")
    ayse.create_table("harftet", seats=2)
    table_id = ayse.table_id()
    assert ali.api("POST", f"/tables/{table_id}/seats/1")["status"] == 200
    ayse.start()  # both hold a hand now
    ali_view = ali.api("GET", f"/tables/{table_id}")["body"]
    session = json.loads(page.evaluate("localStorage.getItem('harftet.session')"))
    refresh = page.evaluate("localStorage.getItem('harftet.refresh')")
    page.get_by_role("button", name=TR["acc.open"]).click()
    dialog = page.locator("#account-dialog")
    expect(dialog.locator("h2")).to_have_text(TR["acc.h"])
    expect(dialog.locator("#acc-passkeys-none")).to_have_text(TR["acc.passkeys.none"])
    names = ["Ayşe"]
    look(ayse, "account-dialog", data=names)

    data = download_my_data(ayse, "tr")
    assert data["player"]["playerId"] == session["playerId"]
    assert data["player"]["name"] == "Ayşe"
    assert table_id in data["tables"]
    text = json.dumps(data, ensure_ascii=False)
    ali_id = json.loads(ali.page.evaluate("localStorage.getItem('harftet.session')"))["playerId"]
    assert ali_id not in text, "another player's id in my export"
    assert not {"hand", "hands", "pile", "seed", "salt", "racks"} & keys_of(data), keys_of(data)
    assert ali_view["hand"] and not tiles_in(data), tiles_in(data)  # no tile of anybody's hand

    ayse.answer_dialogs = False  # "Hesabımı sil": asked, answered no
    page.get_by_role("button", name=TR["acc.delete"]).click()
    expect(dialog).to_be_visible()
    assert ayse.dialogs[-1:] == [TR["acc.delete.confirm"]], ayse.dialogs
    assert ayse.api("GET", "/players/me/tables")["status"] == 200  # nothing changed
    ayse.answer_dialogs = True

    switch_language(ayse, "en")
    expect(dialog.locator("h2")).to_have_text(EN["acc.h"])
    look(ayse, "account-dialog", "en", data=names)
    assert download_my_data(ayse, "en")["player"]["name"] == "Ayşe"
    page.get_by_role("button", name=EN["acc.delete"]).click()  # asked, answered yes
    expect(page.locator("#login")).to_be_visible()  # the first screen
    assert ayse.dialogs[-1] == EN["acc.delete.confirm"], ayse.dialogs
    expect(page.locator("#notice-text")).to_have_text(EN["acc.deleted"])
    expect(page.get_by_label(EN["login.name"])).to_have_value("")  # her name not left behind
    look(ayse, "deleted-first-screen", "en")
    refused = page.evaluate(
        """async ([token, refresh]) => [
          (await fetch("/players/me/tables", {headers: {Authorization: `Bearer ${token}`}})).status,
          (await fetch("/sessions/refresh", {method: "POST",
             body: JSON.stringify({refreshToken: refresh}),
             headers: {"Content-Type": "application/json"}})).status]""",
        [session["token"], refresh or "v1.none"],
    )
    assert refused == [401, 401], refused
    switch_language(ayse, "tr")
    expect(page.get_by_role("button", name=TR["login.go"])).to_be_visible()
    look(ayse, "deleted-first-screen")
    for tab in (ayse, ali):
        assert not [e for e in tab.unexpected_errors() if "401" not in e], tab.errors
        tab.close()


@SIZES
def test_a_deleted_partner_in_my_inbox_is_named_in_my_language(
    stack: RunningStack,
    browser: Any,  # noqa: F811
    size: tuple[int, int],
) -> None:
    """Ece and Ali finish a game; Ali deletes his account. Ece's inbox lists the game with
    the catalogue's "Silinmiş oyuncu" for him, and "Deleted player" on the switch (the server
    keeps the Turkish name at the table and marks the seat, GET /players/me/tables
    `deleted`)."""
    ece = Tab(browser, base(stack), size)
    page = ece.page
    ece.sign_in("Ece")
    ali = Tab(browser, base(stack), size)
    ali.sign_in("Ali")
    table_id = finish_an_unseeded_game(ece, ali)
    assert ali.api("DELETE", "/players/me")["status"] in (200, 204)
    ali.close()
    deadline = time.monotonic() + 30  # the stream's consumer writes her item of the new version
    while True:
        tables = ece.api("GET", "/players/me/tables")["body"]["tables"]
        entry = next(t for t in tables if t["tableId"] == table_id)
        if entry["deleted"] == [1]:
            break
        assert time.monotonic() < deadline, entry
        time.sleep(0.5)
    assert entry["players"] == ["Ece", TR["player.deleted"]]  # the stored name is Turkish
    page.reload()
    row = page.locator(f'#inbox .inbox-item[data-table="{table_id}"]')
    expect(row.locator(".inbox-names")).to_have_text(f"Ece, {TR['player.deleted']}")
    look(ece, "inbox-deleted", data=["Ece"])
    switch_language(ece, "en")
    expect(row.locator(".inbox-names")).to_have_text(f"Ece, {EN['player.deleted']}")
    expect(row).not_to_contain_text(TR["player.deleted"])
    look(ece, "inbox-deleted", "en", data=["Ece"])
    switch_language(ece, "tr")
    expect(row.locator(".inbox-names")).to_have_text(f"Ece, {TR['player.deleted']}")
    # the game's own moves went over the API, the draw refused once the hand is full: not the page's
    assert [e for e in ece.unexpected_errors() if "status of 4" not in e] == [], ece.errors
    ece.close()

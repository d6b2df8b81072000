"""Accounts in the web client (clients/web/account.js) in Chromium with the DevTools virtual
authenticator: a guest registers a passkey; a second browser context, holding the same
(synced) passkey, signs in with it and finds the same player and rating; a third signs in
with a transfer code shown on the first. Passkeys need a registrable domain, so the pages
are opened on http://localhost (the local stack's relying party)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from test_web_client import Tab, browser, expect  # noqa: F401 - browser: the fixture

pytestmark = pytest.mark.e2e

AUTHENTICATOR = {
    "protocol": "ctap2",
    "transport": "internal",
    "hasResidentKey": True,
    "hasUserVerification": True,
    "isUserVerified": True,
    "automaticPresenceSimulation": True,
}


def with_authenticator(browser: Any, base_url: str) -> tuple[Tab, Any, str]:  # noqa: F811
    """A new context with a virtual platform authenticator, on the play page."""
    tab = Tab(browser, base_url)
    cdp = tab.context.new_cdp_session(tab.page)  # the authenticator is the page's
    cdp.send("WebAuthn.enable")
    made = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})
    return tab, cdp, made["authenticatorId"]


def test_a_passkey_moves_the_player_to_another_browser_and_a_code_to_a_third(browser, local_stack):  # noqa: F811
    base = local_stack.replace("127.0.0.1", "localhost")
    first, cdp, authenticator = with_authenticator(browser, base)
    first.sign_in("Ayşe")
    rating = first.page.locator("#me-rating").inner_text()
    player_id = first.page.evaluate("JSON.parse(localStorage['harftet.session']).playerId")

    first.page.locator("#acc-open").click()
    first.page.locator("#acc-passkey-add").click()
    expect(first.page.locator("#acc-passkeys li")).to_have_count(1)
    credentials = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})
    assert (
        len(credentials["credentials"]) == 1
        and credentials["credentials"][0]["isResidentCredential"]
    )

    second, cdp2, authenticator2 = with_authenticator(browser, base)
    cdp2.send(  # the synced passkey: the same credential on the second device
        "WebAuthn.addCredential",
        {"authenticatorId": authenticator2, "credential": credentials["credentials"][0]},
    )
    expect(second.page.locator("#login")).to_be_visible()
    second.page.locator("#acc-passkey-signin").click()
    expect(second.page.locator("#lobby")).to_be_visible()
    expect(second.page.locator("#me-name")).to_have_text("Ayşe")
    expect(second.page.locator("#me-rating")).to_have_text(rating)
    session = second.page.evaluate("JSON.parse(localStorage['harftet.session'])")
    assert session["playerId"] == player_id
    assert second.page.evaluate("localStorage['harftet.refresh']").startswith("v1.")

    first.page.locator("#acc-code-make").click()
    code = first.page.locator("#acc-code-value").inner_text()
    assert re.fullmatch(r"[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{8}", code)
    third = Tab(browser, base)
    third.page.get_by_role("button", name="English").click()  # the account texts follow it
    expect(third.page.locator("#acc-passkey-signin")).to_have_text("Sign in with a passkey")
    third.page.get_by_role("button", name="Türkçe").click()
    expect(third.page.locator("#acc-passkey-signin")).to_have_text("Geçiş anahtarıyla gir")
    wrong = "22222222" if code != "22222222" else "33333333"
    third.page.locator("#acc-code-input").fill(wrong)  # a wrong code first: said in Turkish
    third.page.locator("#acc-code-form button").click()
    notice = third.page.locator("#notice")
    expect(third.page.locator("#notice-text")).to_have_text(
        "Bu kod tanınmadı: süresi geçmiş ya da kullanılmış olabilir. "
        "Diğer cihazında yeni bir kod al."
    )
    third.page.locator("#acc-code-input").fill(code)
    third.page.locator("#acc-code-form button").click()
    expect(third.page.locator("#me-name")).to_have_text("Ayşe")
    expect(notice).to_be_hidden()  # no red notice left on the lobby after the sign-in
    assert third.page.evaluate("JSON.parse(localStorage['harftet.session']).playerId") == player_id
    first.shot("account-dialog")
    for tab in (first, second, third):
        assert not [e for e in tab.unexpected_errors() if "401" not in e], tab.errors
        tab.close()


def test_a_phrase_shows_on_the_senders_seat_until_that_seat_is_muted(browser, local_stack):  # noqa: F811
    host = Tab(browser, local_stack)
    host.sign_in("Zeynep")
    host.create_table("kastet", seats=2)
    table_id = host.table_id()
    guest = Tab(browser, local_stack, path=f"#t={table_id}")
    guest.sign_in("Hakan", screen="#table")
    guest.seat(1).get_by_role("button", name="Otur").click()
    expect(host.seat(1)).to_contain_text("Hakan")
    expect(guest.page.locator("#ws-state")).to_have_text("canlı")

    guest.page.locator("#phrase-open").click()
    guest.page.locator('#phrase-menu [data-phrase="iyi-oyunlar"]').click()
    expect(host.seat(1).locator(".phrase-bubble")).to_have_text("İyi oyunlar")

    host.page.locator("#phrase-open").click()
    host.page.locator('#phrase-menu [data-mute="1"]').click()  # Zeynep mutes Hakan's seat
    host.page.locator("#phrase-open").click()
    expect(host.seat(1).locator(".phrase-bubble")).to_have_count(0, timeout=6000)
    guest.page.wait_for_timeout(3100)  # one phrase every 3 s
    guest.page.locator("#phrase-open").click()
    with guest.page.expect_response(lambda r: r.url.endswith("/phrases")) as sent:
        guest.page.locator('#phrase-menu [data-phrase="tebrikler"]').click()
    assert sent.value.status == 200  # it was sent and pushed: only the mute hides it
    guest.page.wait_for_timeout(1000)
    expect(host.seat(1).locator(".phrase-bubble")).to_have_count(0)
    for tab in (host, guest):
        assert tab.unexpected_errors() == [], tab.errors
        tab.close()


OLD_TOKEN_TRIES = """async ([token, tableId]) => {
  const sub = {endpoint: "https://push.example.com/s/1",
               keys: {p256dh: "B" + "A".repeat(86), auth: "A".repeat(22)}};
  const call = (method, path, body) => fetch(path, {method, body: body && JSON.stringify(body),
    headers: {Authorization: `Bearer ${token}`, "Content-Type": "application/json"}})
    .then((r) => r.status);
  const socket = (query) => new Promise((done) => {
    const ws = new WebSocket(`${location.origin.replace("http", "ws")}/ws?${query}`);
    ws.onopen = () => { ws.close(); done("open"); };
    ws.onerror = () => done("refused");
  });
  return {
    tables: await call("GET", "/players/me/tables"),
    push: await call("POST", "/players/me/push-subscriptions", sub),
    report: await call("POST", `/tables/${tableId}/reports`, {seat: 0, kind: "insult"}),
    friends: await call("GET", "/players/me/friends"),
    lobbySocket: await socket(`token=${token}`),
    tableSocket: await socket(`token=${token}&tableId=${tableId}`),
  };
}"""


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)])
def test_deleting_the_account_from_the_client_makes_its_old_token_worthless(
    browser,  # noqa: F811
    local_stack,
    size,
):
    """API.md v4 "Deleted players": the account dialog's delete; then the token the browser
    held is refused at once by REST and by the WebSocket (the probe's 30-day guest token
    made a push subscription, filed a report and opened sockets after the delete)."""
    base = local_stack.replace("127.0.0.1", "localhost")  # where the account dialog is offered
    tab = Tab(browser, base, size=size)
    tab.sign_in("Silinecek")
    token = tab.page.evaluate("JSON.parse(localStorage['harftet.session']).token")
    table_id = tab.page.evaluate(  # her own table, made with her token
        """async (token) => (await (await fetch("/tables", {method: "POST",
             headers: {Authorization: `Bearer ${token}`, "Content-Type": "application/json"},
             body: JSON.stringify({game: "kastet", seats: 2, hands: 1})})).json()).tableId""",
        token,
    )
    before = tab.page.evaluate(OLD_TOKEN_TRIES, [token, table_id])
    assert before["tables"] == before["friends"] == 200
    assert before["lobbySocket"] == before["tableSocket"] == "open"

    tab.page.locator("#acc-open").click()
    tab.page.locator("#acc-delete").click()  # the confirm dialog is accepted
    expect(tab.page.locator("#login")).to_be_visible()
    assert tab.dialogs, "the client asked before deleting"

    after = tab.page.evaluate(OLD_TOKEN_TRIES, [token, table_id])
    assert after == {
        "tables": 401, "push": 401, "report": 401, "friends": 401,
        "lobbySocket": "refused", "tableSocket": "refused",
    }  # fmt: skip
    tab.shot(f"deleted-{size[0]}")
    tab.close()

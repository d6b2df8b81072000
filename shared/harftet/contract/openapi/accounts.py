"""Accounts and people (harftet.rest.accounts, harftet.rest.people): passkeys, sessions,
transfer codes, the player's data,
phrases, friends, blocks and invitations."""

from __future__ import annotations

from harftet.contract.openapi.route import Route
from harftet.contract.openapi.schemas import Texts

TEXTS_QUERY = ({"name": "lang", "in": "query", "schema": {"type": "string", "enum": ["tr", "en"]}},)


def routes() -> list[Route]:
    """The routes of harftet.rest.accounts and harftet.rest.people."""
    from harftet.accounts import models as m  # the package brings its service: only when asked

    return [
        Route("post", "/players/me/passkeys/options", "Options to register a passkey",
              None, "200", m.PasskeyOptions, True),
        Route("post", "/players/me/passkeys", "Register a passkey (the options' challenge, once)",
              m.PasskeyResponse, "201", m.Passkey, True),
        Route("get", "/players/me/passkeys", "Your passkeys", None, "200", m.Passkeys, True),
        Route("delete", "/players/me/passkeys/{passkeyId}",
              "Remove a passkey (and end the sessions it opened)", None, "204", None, True),
        Route("post", "/sessions/passkey/options", "Options to sign in with a passkey",
              None, "200", m.PasskeyOptions, False),
        Route("post", "/sessions/passkey", "Sign in with a passkey (any device that has it)",
              m.PasskeyResponse, "200", m.SignedIn, False),
        Route("post", "/players/me/transfer-codes",
              "A single-use 10-minute code to sign in on another device", None, "201",
              m.TransferCode, True),
        Route("post", "/sessions/transfer", "Sign in with a transfer code", m.TransferSignIn,
              "200", m.SignedIn, False),
        Route("post", "/sessions/refresh", "New tokens for a session (the refresh token rotates)",
              m.Refresh, "200", m.SignedIn, False),
        Route("delete", "/sessions/current", "Sign out (end this session)", None, "204", None,
              True),
        Route("get", "/players/me/export", "Everything stored about you", None, "200", m.Export,
              True),
        Route("delete", "/players/me", "Delete yourself (finished games keep an anonymous seat)",
              None, "204", None, True),
        Route("get", "/phrases", "The phrases players may send at a table", None, "200",
              m.PhraseList, False),
        Route("get", "/texts", "Every sentence a player reads, in one language (lang=tr|en)",
              None, "200", Texts, False, TEXTS_QUERY),
        Route("get", "/players/me/friends", "Your friend code, friends and requests", None, "200",
              m.Friends, True),
        Route("post", "/players/me/friends", "Ask the player of a friend code to be friends",
              m.FriendRequest, "200", m.Friends, True),
        Route("post", "/players/me/friends/{playerId}", "Accept a friend request", None, "200",
              m.Friends, True),
        Route("delete", "/players/me/friends/{playerId}",
              "Remove a friend, refuse a request or take yours back", None, "204", None, True),
        Route("post", "/players/me/blocks/{playerId}", "Block a player", None, "204", None, True),
        Route("delete", "/players/me/blocks/{playerId}", "Unblock a player", None, "204", None,
              True),
        Route("post", "/tables/{tableId}/invitations",
              "Invite a friend to a table (pushed to their open sockets)", m.Invitation, "202",
              m.Invited, True),
        Route("post", "/tables/{tableId}/phrases",
              "Send a phrase to the table (seated players; one every 3 s, 20 a hand)",
              m.SendPhrase, "200", m.PhraseSent, True),
    ]  # fmt: skip

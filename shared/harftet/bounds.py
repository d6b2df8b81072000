"""Every bound a player meets, declared once: the rest of the server and the clients derive
theirs from here (a client reads them with the catalogue, `GET /texts` ``"bounds"``, and
sets its forms' limits from them: no client writes "24" or "20" of its own).

The table options' bounds live with the rules that check them (`harftet.engine.options`),
the computer players' levels with the search (`harftet.engine.search`); `client_bounds`
says them all in the API's names.
"""

from __future__ import annotations

from typing import Any, Final

from harftet.engine.options import API_NAMES, CORRESPONDENCE_TURNS, LIMITS, PACES

NAME_MAX: Final = 24
"""The most visible characters a player's name may have (API.md, Identity)."""
CODE_LENGTH: Final = 8
"""Characters of a transfer code and of a friend code."""
CODE_ALPHABET: Final = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
"""What codes are made of: no 0/O, 1/I/L, so they are read aloud and typed safely."""
WAITING_TABLES_MAX: Final = 3
"""Waiting tables one player may manage at once (one guest's burst must not fill the lobby)."""
CORRESPONDENCE_TABLES_MAX: Final = 20
"""Running correspondence tables one player may hold (RULES §6)."""
FRIENDS_MAX: Final = 200
"""Friends one player may have."""
PASSKEYS_MAX: Final = 10
"""Passkeys one player may register."""
PHRASES_PER_HAND: Final = 20
"""Phrases one player may send in a hand (RULES §7)."""
PHRASE_GAP_SECONDS: Final = 3
"""The least time between two phrases of one player (RULES §7)."""


def client_bounds() -> dict[str, Any]:
    """The bounds a client shows or checks, in the API's names."""
    from harftet.engine.search import BOT_LEVELS, DEFAULT_BOT_LEVEL  # the search: not at import

    return {
        "nameMax": NAME_MAX,
        "codeLength": CODE_LENGTH,
        "options": {API_NAMES[name]: list(bounds) for name, bounds in LIMITS.items()},
        "paces": list(PACES),
        "correspondenceTurns": list(CORRESPONDENCE_TURNS),
        "levels": list(BOT_LEVELS),
        "defaultLevel": DEFAULT_BOT_LEVEL,
        "waitingTablesMax": WAITING_TABLES_MAX,
        "correspondenceTablesMax": CORRESPONDENCE_TABLES_MAX,
        "friendsMax": FRIENDS_MAX,
        "phrasesPerHand": PHRASES_PER_HAND,
    }

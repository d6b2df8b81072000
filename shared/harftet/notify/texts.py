"""What a notification says: Turkish first, English for players who chose it.

The title and body a push shows, and the URL it opens (the table in the web client).
"""

from __future__ import annotations

from typing import Any

GAMES = {"harftet": ("Harftet", "Harftet"), "kastet": ("Kastet", "Kastet")}

# kind → ((Turkish title, body), (English title, body)); placeholders: {game}, {others},
# {hours}, {who}, {points}.
TEXTS: dict[str, tuple[tuple[str, str], tuple[str, str]]] = {
    "turn": (
        ("Sıra sende", "{game}: {others} ile oynadığın masada sıra sende."),
        ("Your turn", "{game}: it is your turn at your table with {others}."),
    ),
    "reminder": (
        ("Süren doluyor", "{game}: {others} ile oynadığın masada hamle için 1 saatin kaldı."),
        ("Time is running out", "{game}: 1 hour left for your move at your table with {others}."),
    ),
    "invitation": (
        ("Masaya davet", "{who} seni bir {game} masasına davet ediyor."),
        ("Table invitation", "{who} invites you to a {game} table."),
    ),
    "gameEnd": (
        ("Oyun bitti", "{game}: {others} ile oynadığın oyun bitti. Puanın: {points}."),
        ("Game over", "{game}: your game with {others} is over. Your points: {points}."),
    ),
}


def render(kind: str, data: dict[str, Any], player_name: str | None, lang: str) -> dict[str, str]:
    """``{"title", "body", "lang"}`` of a notification for one player."""
    english = lang == "en"
    title, body = TEXTS[kind][1 if english else 0]
    game = GAMES.get(str(data.get("game")), ("Harftet", "Harftet"))[1 if english else 0]
    players = [str(p) for p in data.get("players") or [] if p != player_name]
    others = ", ".join(players) or ("the computer" if english else "bilgisayar")
    points = data.get("points")
    shown = "—" if points is None else (f"+{points}" if int(points) > 0 else str(points))
    who = str(data.get("from") or ("A friend" if english else "Bir arkadaşın"))
    fields = {"game": game, "others": others, "points": shown, "who": who}
    return {"title": title, "body": body.format(**fields), "lang": "en" if english else "tr"}

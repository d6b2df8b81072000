"""What a notification says, from the catalogue (`harftet.texts`: ``notify.<kind>.title`` and
``.body``): Turkish first, English for players who chose it."""

from __future__ import annotations

from typing import Any

from harftet.texts import catalogue, fill


def render(kind: str, data: dict[str, Any], player_name: str | None, lang: str) -> dict[str, str]:
    """``{"title", "body", "lang"}`` of a notification for one player."""
    lang = "en" if lang == "en" else "tr"
    texts = catalogue(lang)
    game = texts.get(f"game.{data.get('game')}", texts["game.harftet"])
    players = [str(p) for p in data.get("players") or [] if p != player_name]
    points = data.get("points")
    fields = {
        "game": game,
        "others": ", ".join(players) or texts["notify.computer"],
        "points": "—" if points is None else (f"+{points}" if int(points) > 0 else str(points)),
        "who": str(data.get("from") or texts["notify.friend"]),
        "round": str(data.get("round") or ""),
        "name": str(data.get("name") or ""),
    }
    key = "tournament.notify" if kind == "tournament" else f"notify.{kind}"  # a round seated
    if kind == "gameEnd" and data.get("closed") == "abandoned":
        key = "notify.abandoned"  # nobody was left at the table: the game ended
    title = fill(texts[f"{key}.title"], fields)
    return {"title": title, "body": fill(texts[f"{key}.body"], fields), "lang": lang}

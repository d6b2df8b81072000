"""Words (harftet.rest.words): what the game knows of a word, and reports of wrong or
missing ones."""

from __future__ import annotations

from harftet.contract.openapi.route import Route


def routes() -> list[Route]:
    """The routes of harftet.rest.words (look-ups and reports)."""
    from harftet.words import models as w

    return [
        Route("get", "/words/{word}",
              "What the game knows of a word: in the list, its kinds and sources, or why not",
              None, "200", w.WordInfo, False),
        Route("post", "/words/{word}/reports",
              "Report a word as wrong or missing (10 an hour; once per word and kind counts)",
              w.WordReport, "202", w.WordReported, True),
    ]  # fmt: skip

"""Request and answer bodies of the word routes (API.md v3 "Words"), for validation and the
OpenAPI document."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class WordReport(Strict):
    """A player's report: the word should not count (``wrong``) or is missing (``missing``)."""

    kind: Literal["wrong", "missing"]


class WordReported(Strict):
    word: str = Field(description="The word in game form (Turkish upper case)")
    kind: Literal["wrong", "missing"]


class WordInfo(Strict):
    """What the game knows of a word; a refused word says why (``reason``, ``message``)."""

    word: str = Field(description="The word in game form (Turkish upper case)")
    known: bool = Field(description="Whether the game's dictionary holds it")
    kinds: list[str] = Field(description="Its kinds as the source tags them: isim, sıfat, fiil…")
    sources: list[str] = Field(
        description="The lists that hold it: nlptoolkit-dictionary, zemberek, hunspell-tr, "
        "allow.txt"
    )
    reason: Literal["not_in_list", "inflected"] | None = Field(
        default=None, description="Why an unknown word is refused"
    )
    message: str | None = Field(
        default=None, description="The reason in a sentence (Accept-Language: tr or en)"
    )
    stem: str | None = Field(
        default=None, description="For an inflected-looking word: the listed word it builds on"
    )

"""One list of error codes and one catalogue of sentences: the OpenAPI and AsyncAPI documents,
the HTTP map and the catalogue (`GET /texts`) all name exactly `harftet.errors.ERROR_CODES`,
every code and every illegal move's reason has a sentence in Turkish and in English, and the
two languages fill the same placeholders."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from harftet.engine.errors import REASONS
from harftet.errors import ERROR_CODES, STATUS
from harftet.texts import LANGUAGES, catalogue, placeholders

DOCS = Path(__file__).resolve().parents[1] / "docs"


def _codes_in(document: dict[str, Any]) -> list[str]:
    schema = document["components"]["schemas"]["ErrorDetail"]["properties"]["code"]
    return list(schema["enum"])


def test_the_openapi_document_names_exactly_the_error_codes() -> None:
    document = json.loads((DOCS / "openapi.json").read_text())
    assert _codes_in(document) == list(ERROR_CODES)


def test_the_asyncapi_document_names_exactly_the_error_codes() -> None:
    document = yaml.safe_load((DOCS / "asyncapi.yaml").read_text())
    assert _codes_in(document) == list(ERROR_CODES)


def test_every_code_has_one_status_and_statuses_are_errors() -> None:
    assert set(STATUS) == set(ERROR_CODES) and len(ERROR_CODES) == len(set(ERROR_CODES))
    assert all(400 <= status < 600 for status in STATUS.values())


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_catalogue_has_a_sentence_for_exactly_the_error_codes(lang: str) -> None:
    said = {k.removeprefix("error.") for k in catalogue(lang) if k.startswith("error.")}
    assert said == set(ERROR_CODES)
    assert all(catalogue(lang)[f"error.{code}"].strip() for code in ERROR_CODES)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_reason_of_an_illegal_move_has_a_sentence(lang: str) -> None:
    missing = [r for r in REASONS if not catalogue(lang).get(f"reason.{r}", "").strip()]
    assert not missing


def test_turkish_and_english_hold_the_same_keys_and_placeholders() -> None:
    tr, en = catalogue("tr"), catalogue("en")
    # English alone says "1 table" but "2 tables": a key may have a ".one" form (Turkish needs none)
    assert set(tr) == {k for k in en if not (k.endswith(".one") and k[:-4] in en)}
    differ = [k for k in tr if placeholders(tr[k]) != placeholders(en[k])]
    assert not differ, f"placeholders differ between tr and en: {differ}"


def test_no_sentence_quotes_a_bound_the_rules_declare() -> None:
    """ "at most 3 tables", "20 correspondence tables": said with {max}, filled from the
    rules, so a changed bound changes every sentence."""
    for lang in LANGUAGES:
        for key in ("error.too_many_tables", "reason.too_many_correspondence", "reason.hand_full"):
            assert "{max}" in catalogue(lang)[key]

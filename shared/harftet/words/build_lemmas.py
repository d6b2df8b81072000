"""How common each dictionary *word* is, not its spelling, for `python -m harftet.words.build`:
wordfreq's Turkish surface forms read with a morphological analyser and their frequency
shared out among the words they are forms of.

Why: wordfreq counts spellings. A rare headword inherits the count of a common inflected form
or name that is spelled the same (İŞE is *iş* + dative far more often than *işemek*'s
imperative, ADAMI is *adam* + accusative, EREN a name and *ermek*'s participle), and a common
word's own count misses its inflected forms (KALEMLER, KALEMİ count for KALEM).

How: every entry of wordfreq's list (apostrophe forms too: `arda'nın` says ARDA is a name) is
analysed by akana (MIT/Apache-2.0; zemberek's lexicon and morphology, 0.05 ms a word; the
research's §7 and §8.2). Each analysis is a *reading*: the word it is a form of (a verb by its
infinitive; a lexical derivation such as ŞARKI-CI by the longest listed word it begins with)
and its *shape* (the analysis's tags: bare, dative, a participle, a name…). A form's frequency
is shared among its readings in proportion to P(word) · P(shape), both re-estimated from the
shares (expectation–maximisation, `ROUNDS` rounds): KALEM is read as the bare noun KALEM far
more than as KALE + "my", since bare forms are common and first-person possessives rare.

The result, per listed word: its lemma frequency (the shares of every form read as it) and its
*own share*, the part of its bare spelling read as itself. A word whose spelling is mostly read
as another word's form or a name (own share < `OWN_SHARE`) is left out of the ranking: a
computer player never lays what a reader takes for an inflected form or a name.
"""

from __future__ import annotations

import gzip
import importlib
import sys
import zipfile
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from harftet.engine.words import is_game_word, turkish_upper
from harftet.words.build_filter import infinitive
from harftet.words.build_wordfreq import unpack_msgpack

ROUNDS = 8
AMBIGUOUS_START = 0.01
"""The weight of a form that several words may be, in the words' first estimate."""
OWN_SHARE = 0.6
BARE_CAP = 4.0
"""A noun counts at most this many times the mass of its inflected forms: a noun people use
takes cases and plurals (KALEMLER, KALEMİ); one met almost only bare is mostly something
else spelled the same (EREN: a name, *ermek*'s participle)."""
"""The least share of a word's own spelling that must be read as the word itself."""

# Tags that inflect a word without making another word (case, person, possessive, tense,
# mood, the copula, negation, -ki); every other tag derives.
INFLECTION = frozenset(
    [
        "A1sg",
        "A2sg",
        "A3sg",
        "A1pl",
        "A2pl",
        "A3pl",
        "Pnon",
        "P1sg",
        "P2sg",
        "P3sg",
        "P1pl",
        "P2pl",
        "P3pl",
        "Nom",
        "Acc",
        "Dat",
        "Loc",
        "Abl",
        "Gen",
        "Ins",
        "Equ",
        "Aor",
        "Past",
        "Prog",
        "Fut",
        "Opt",
        "Imp",
        "Cond",
        "Nec",
        "Evid",
        "Neg",
        "Desr",
        "Cop",
        "CopPast",
        "CopPres1sg",
        "CopPres2sg",
        "CopPres3sg",
        "CopPres1pl",
        "CopPres2pl",
        "CopPres3pl",
        "CopCond",
        "CopEvid",
        "RelClitic",
    ]
)
# Derivations that make forms of a word rather than dictionary words (participles, converbs,
# abilities): a reading through one of them counts for the word it starts from.
GRAMMATICAL = frozenset(
    [
        "PastPart",
        "FutPart",
        "PresPart",
        "AorPart",
        "NarrPart",
        "AdvErek",
        "AdvIp",
        "While",
        "AdvInce",
        "Manner",
        "WithoutHavingDoneSo",
        "SinceDoingSo",
        "Abil",
        "NegAbil",
        "NounToVerb",
    ]
)
BARE = frozenset({"A3sg", "Pnon", "Nom"})
CLOSED = frozenset((pos,) for pos in ("Postp", "Conj", "Det", "Q", "Interj", "Dup"))
"""Shapes of words that take no endings: postpositions, conjunctions, interjections…"""
NAME = "name"
SUFFIXED_NAME = (NAME, "suffixed")
BARE_NAME = (NAME, "bare")

Reading = tuple[str, tuple[str, ...]]  # (word or "name:…", shape)


def raw_wordfreq(packed: bytes) -> dict[str, float]:
    """Return {entry as wordfreq writes it (lower case, apostrophes kept): frequency}."""
    doc = unpack_msgpack(gzip.decompress(packed))
    if not isinstance(doc, list) or not doc or not isinstance(doc[0], dict):
        raise ValueError("not a wordfreq list")
    out: dict[str, float] = {}
    for index, bucket in enumerate(doc[1:]):
        assert isinstance(bucket, list)
        for entry in bucket:
            out[str(entry)] = out.get(str(entry), 0.0) + 10.0 ** (-index / 100)
    return out


def load_akana(wheel: Path, into: Path) -> Any:
    """akana's `Morphology()`, imported from its wheel unpacked into `into` (not installed:
    the build needs it once, the game never)."""
    if not (into / "akana" / "__init__.py").exists():
        with zipfile.ZipFile(wheel) as zf:
            zf.extractall(into)
    if str(into) not in sys.path:
        sys.path.insert(0, str(into))
    return importlib.import_module("akana").Morphology()


class Reader:
    """Turns an analysis into a reading, given the listed words and verb stems."""

    def __init__(self, words: set[str], verbs: set[str]) -> None:
        self.words = words
        self.verbs = verbs

    def key(self, word: str) -> str:
        """A listed verb stem stands for its verb (OKU → OKUMAK)."""
        return infinitive(word) if word in self.verbs else word

    def reading(self, surface: str, raw: str, a: dict[str, Any]) -> Reading | None:
        """The word and shape of one akana analysis of `surface` (game form of `raw`): a name
        when written with an apostrophe (ARDA'NIN) or analysed as a bare name; None for an
        inflected name's analysis without an apostrophe (the analyser offers one for nearly
        every word: KALEM as a name KALE + "my")."""
        tags = tuple(a["morphemes"])
        if "'" in raw:
            return f"{NAME}:{turkish_upper(a['lemma'])}", SUFFIXED_NAME
        if a["secondary_pos"] in ("Prop", "Abbrv"):
            return (f"{NAME}:{surface}", BARE_NAME) if BARE.issuperset(tags[1:]) else None
        root = turkish_upper(a["root"])
        base = infinitive(root) if a["primary_pos"] == "Verb" else turkish_upper(a["lemma"])
        derived = [t for t in tags[1:] if t not in INFLECTION]
        if not derived or any(t in GRAMMATICAL for t in derived):
            return base, tags
        for n in range(len(surface), len(root), -1):  # lexical derivations: ŞARKI-CI-LAR
            if surface[:n] in self.words:
                return self.key(surface[:n]), tags
        return base, tags

    def readings(self, raw: str, analyses: list[dict[str, Any]]) -> list[Reading]:
        """Every distinct reading of one wordfreq entry; an entry the analyser does not know
        is read as itself when it is listed."""
        surface = turkish_upper(raw.replace("'", ""))
        out = {r for a in analyses if (r := self.reading(surface, raw, a)) is not None}
        if not out and is_game_word(surface, 2) and surface in self.words:
            out.add((self.key(surface), ("bare",)))
        return sorted(out)


def estimate(
    forms: dict[str, tuple[float, list[Reading]]], rounds: int = ROUNDS
) -> tuple[dict[str, float], dict[tuple[str, str], float]]:
    """Share each form's frequency among its readings ∝ P(word) · P(shape); returns the
    words' frequencies and each (form, word) share."""
    word_mass: dict[str, float] = defaultdict(float)
    shape_mass: dict[tuple[str, ...], float] = defaultdict(float)
    for f, readings in forms.values():
        # A word starts from the forms only it can be (KALEMLER): one whose only evidence is
        # a spelling shared with a common word's form (EDER, "does") starts near nothing.
        # A word that takes no endings (İÇİN, ÇÜNKÜ) has no other forms to show it, so its
        # one spelling counts in full.
        sole = len({w for w, _ in readings}) == 1
        for w, shape in readings:
            weight = 1.0 if sole or shape in CLOSED else AMBIGUOUS_START
            word_mass[w] += weight * f / len(readings)
            shape_mass[shape] += f / len(readings)
    shares: dict[tuple[str, str], float] = {}
    for _ in range(rounds):
        new_words: dict[str, float] = defaultdict(float)
        new_shapes: dict[tuple[str, ...], float] = defaultdict(float)
        shares = {}
        top = max(shape_mass.values())
        for form, (f, readings) in forms.items():
            # A closed word class is one shape per word, rare as a class however common the
            # word (İÇİN against İÇ + genitive): the word's own mass decides.
            weights = [
                word_mass[w] * (top if shape in CLOSED else shape_mass[shape])
                for w, shape in readings
            ]
            total = sum(weights) or 1.0
            for (w, shape), weight in zip(readings, weights, strict=True):
                part = weight / total
                new_words[w] += f * part
                new_shapes[shape] += f * part
                shares[(form, w)] = shares.get((form, w), 0.0) + part
        word_mass, shape_mass = new_words, new_shapes
    return dict(word_mass), shares


def _bare_nouns(
    forms: dict[str, tuple[float, list[Reading]]], shares: dict[tuple[str, str], float]
) -> dict[str, float]:
    """Each noun's mass from its bare spelling (no case, person or plural)."""
    out: dict[str, float] = defaultdict(float)
    for raw, (f, readings) in forms.items():
        for w, shape in readings:
            if shape[:1] == ("Noun",) and BARE.issuperset(shape[1:]):
                out[w] += f * shares.get((raw, w), 0.0)
    return out


def lemma_ranking(
    entries: dict[str, float],
    analyse: Callable[[str], list[dict[str, Any]]],
    words: Iterable[str],
    verbs: set[str],
    counts: dict[str, int] | None = None,
) -> tuple[list[str], dict[str, float]]:
    """The listed words, most common first (ties alphabetical), without those whose spelling
    is mostly read as something else; and every listed word's own share of its spelling."""
    listed = set(words)
    reader = Reader(listed, verbs & listed)
    forms: dict[str, tuple[float, list[Reading]]] = {}
    names: set[str] = set()
    for raw, f in entries.items():
        readings = reader.readings(raw, analyse(raw))
        if readings:
            forms[raw] = (f, readings)
            names.update(w for w, _ in readings if w.startswith(NAME))
    for raw, (_, readings) in forms.items():  # a bare spelling of a name may be the name
        name = f"{NAME}:{turkish_upper(raw)}"
        if "'" not in raw and name in names and all(w != name for w, _ in readings):
            readings.append((name, BARE_NAME))
    mass, shares = estimate(forms)
    bare = _bare_nouns(forms, shares)
    own: dict[str, float] = {}
    for raw in forms:
        surface = turkish_upper(raw)
        if surface in listed:
            keys = {surface, reader.key(surface)}
            own[surface] = sum(shares.get((raw, k), 0.0) for k in keys)
    score: dict[str, float] = {}
    for w in listed:
        m = mass.get(w, 0.0) + (mass.get(reader.key(w), 0.0) if reader.key(w) != w else 0.0)
        m = min(m, BARE_CAP * (m - bare.get(w, 0.0)))
        if m > 0 and own.get(w, 1.0) >= OWN_SHARE:
            score[w] = m
    if counts is not None:
        counts["listed words read as forms of another word or names (left unranked)"] = sum(
            1 for w, s in own.items() if s < OWN_SHARE
        )
    return sorted(score, key=lambda w: (-score[w], w)), own


def verb_stems(info: dict[str, tuple[list[str], list[str]]]) -> set[str]:
    """The listed verb stems (OKU beside OKUMAK), from each word's kinds."""
    return {
        w
        for w, (kinds, _) in info.items()
        if "fiil" in kinds and infinitive(w) != w and infinitive(w) in info
    }


def build_ranking(
    wordfreq: bytes,
    akana_wheel: Path,
    cache_dir: Path,
    info: dict[str, tuple[list[str], list[str]]],
    blocked: frozenset[str],
    counts: dict[str, int],
) -> list[str]:
    """The ranking the build writes: the listed words by lemma frequency, the blocked ones
    and those mostly read as something else left out."""
    morphology = load_akana(akana_wheel, cache_dir / akana_wheel.stem)
    entries = raw_wordfreq(wordfreq)
    ranked, _ = lemma_ranking(entries, morphology.analyze, info, verb_stems(info), counts)
    counts["blocked words left unranked"] = sum(1 for w in ranked if w in blocked)
    return [w for w in ranked if w not in blocked]

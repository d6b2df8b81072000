"""Which nlptoolkit headwords are game words, and what each word is, for
`python -m harftet.words.build`: the three lexicons parsed (nlptoolkit, zemberek, hunspell-tr),
the filter (dictionary.md §4 and §9, plus the name and spelling checks), and each written
word's kinds and sources.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from harftet.engine.words import is_game_word, turkish_upper

# nlptoolkit flags that name a part of speech (IS_DUP marks halves of reduplications, EK the
# copula forms idi/imiş, IS_HEADER markup: none of them is a word on its own).
POS_FLAGS = frozenset(
    {
        "CL_ISIM",  # noun
        "CL_FIIL",  # verb (stored as the stem)
        "CL_NONE",  # uninflected words: interjections, greetings (agu, aleykümselam)
        "IS_ADJ",
        "IS_PUREADJ",
        "IS_ADVERB",
        "IS_INTERJ",
        "IS_CONJ",
        "IS_POSTP",
        "IS_ZM",  # pronoun
        "IS_DET",
        "IS_QUES",
        "IS_SAYI",  # cardinal number
        "IS_ORD",
    }
)
PROPER_FLAGS = frozenset({"IS_OA", "IS_KIS"})  # proper noun, abbreviation
FLAG_TYPOS = {"IS-OA": "IS_OA", "CL_ISIN": "CL_ISIM"}
BACK_VOWELS = frozenset("AIOU")
FRONT_VOWELS = frozenset("EİÖÜ")
VOWELS = BACK_VOWELS | FRONT_VOWELS
_CONSONANT = "[BCÇDFGĞHJKLMNPRSŞTVZ]"
# Spellings no Turkish word has: Latin taxon endings (PHASİANİDAE, PASSERİFORMES, ROSALES,
# MAMMALİA…), CH/CK/GH/OU and Y between consonants or after a final consonant (CHAT, HACKER,
# LİBRARY). Checked against zemberek's common words: none of them matches.
FOREIGN = re.compile(
    r"(AE|İFORMES|PHYTA|OPSİDA|MORPHA|PTERA|OİDEA|LİA|RİA|NTİA|ALES|PODA|VORA)$"
    rf"|CH|CK|GH|OU|{_CONSONANT}Y{_CONSONANT}|{_CONSONANT}Y$"
)


def parse_nlptoolkit(text: str) -> Iterator[tuple[str, frozenset[str]]]:
    """Yield (word, flags) from turkish_dictionary.txt lines such as `alim IS_ADJ CL_ISIM`."""
    for line in text.splitlines():
        word, *flags = line.split()
        yield word, frozenset(FLAG_TYPOS.get(f, f) for f in flags)


def infinitive(stem: str) -> str:
    """Return the infinitive of a game-form verb stem by vowel harmony (OKU→OKUMAK)."""
    for ch in reversed(stem):
        if ch in BACK_VOWELS:
            return stem + "MAK"
        if ch in FRONT_VOWELS:
            return stem + "MEK"
    return stem + "MEK"  # no vowel: never happens in the source, and -MEK is the unmarked form


@dataclass
class Zemberek:
    """Game forms of zemberek lemmas: common words, and those listed only as names/abbreviations."""

    common: set[str] = field(default_factory=set)
    proper: set[str] = field(default_factory=set)


def parse_zemberek(texts: Iterable[str]) -> Zemberek:
    """Read zemberek .dict files (`word [P:Pos, SecPos; A:Attr, …]`) into common/proper sets."""
    z = Zemberek()
    for text in texts:
        for raw in text.splitlines():
            line = raw.strip()
            if not line or line.startswith("##"):
                continue
            word, _, meta = line.partition("[")
            word = word.strip()
            pos, attrs = "", ""
            for part in meta.rstrip("]").split(";"):
                key, _, value = part.strip().partition(":")
                if key == "P":
                    pos = value
                elif key == "A":
                    attrs = value
            if not word or re.search(r"\b(Punc|Dup)\b", pos):
                continue
            form = turkish_upper(word.rstrip("."))
            # zemberek infers Prop from a capital and Abbrv from a final dot.
            if word[0].isupper() or word.endswith(".") or re.search(r"\b(Prop|Abbrv)\b", pos):
                z.proper.add(form)
            elif not re.search(r"\b(Dummy|ImplicitP1sg|ImplicitP2sg)\b", attrs):
                z.common.add(form)
    z.proper -= z.common
    return z


SELECT_STEPS = (
    "entries in turkish_dictionary.txt",
    "dropped: no part of speech (proper noun, abbreviation, markup)",
    "kept: tagged only as a name, common in zemberek and hunspell",
    "kept: tagged only as a name, an action noun (VARIŞ) in hunspell",
    "dropped: tagged proper noun/abbreviation, common in neither zemberek nor hunspell",
    "dropped: zemberek lists it only as a proper noun/abbreviation",
    "dropped: a name + -lI/-cA (ADANALI, TÜRKÇE)",
    "dropped: Latin taxon, English spelling or no vowel",
    "kept: also tagged proper noun, but a zemberek common word",
    "kept: also tagged proper noun, but a lower-case hunspell stem",
    "verbs (stem + infinitive)",
    "dropped forms: outside the 29-letter alphabet or < 2 letters",
    "added: causatives of listed verbs, from hunspell (EĞLENDİRMEK)",
)

# Flags that may stand beside IS_OA on an entry tagged only as a proper noun and still let a
# second source rescue it (IS_SD, IS_UU: sound changes). IS_KIS (abbreviation) and IS_DUP
# (half of a reduplication) never are words.
NAME_ONLY_FLAGS = frozenset({"IS_OA", "IS_SD", "IS_UU"})
# Derivations a name takes to make a demonym, an adjective or a language (ADANALI, TÜRKÇE).
NAME_SUFFIX = re.compile(r"(L[IİUÜ]|[CÇ][AE])$")
ACTION_NOUN = re.compile(r"Y?[IİUÜ]Ş$")  # VAR-IŞ, YAĞ-IŞ, DOĞ-UŞ, ÖZLE-YİŞ
CAUSATIVE = re.compile(r"([DT][IİUÜ]R|[AEIİUÜ]R|T)$")  # EĞLEN-DİR, ÇIK-AR, İÇ-İR, AĞAR-T


@dataclass
class Hunspell:
    """Game forms of hunspell-tr's .dic entries: lower-case ones (common words, though inflected
    forms are mixed in) and capitalised ones (names). A word may be in both (Demirci, demirci)."""

    lower: set[str] = field(default_factory=set)
    capital: set[str] = field(default_factory=set)


def parse_hunspell(text: str) -> Hunspell:
    """Read a hunspell .dic (a count line, then `word/flags` or `word`) into game forms."""
    h = Hunspell()
    lines = text.splitlines()
    for raw in lines[1:] if lines and lines[0].strip().isdigit() else lines:
        word = raw.split("/", 1)[0].strip()
        if not word:
            continue
        (h.capital if word[0].isupper() else h.lower).add(turkish_upper(word))
    return h


def looks_foreign(word: str) -> bool:
    """Tell whether a game-form word is a Latin taxon, an English spelling or has no vowel."""
    return not VOWELS.intersection(word) or FOREIGN.search(word) is not None


def select_words(
    entries: Iterable[tuple[str, frozenset[str]]],
    zemberek: Zemberek,
    counts: dict[str, int] | None = None,
    hunspell: Hunspell | None = None,
) -> set[str]:
    """Apply the headword filter to nlptoolkit entries.

    nlptoolkit's proper-noun tag (IS_OA) also sits on many ordinary words (ÖNEMLİ, AKILLI,
    VARIŞ), so a tagged word is decided by two independent sources: zemberek (a common lemma)
    or Debian's hunspell-tr (a lower-case entry; names are capitalised there). Hunspell alone
    never adds a word nlptoolkit lacks except causatives of listed verbs, and it cannot bring
    in inflected forms: every kept word is an nlptoolkit headword or such a causative.
    """
    entries = list(entries)
    hunspell = hunspell or Hunspell()
    words: set[str] = set()
    counts = {} if counts is None else counts
    for key in SELECT_STEPS:  # also fixes the print order
        counts.setdefault(key, 0)
    judge = _Filter(entries, zemberek, hunspell)
    for word, flags in entries:
        counts["entries in turkish_dictionary.txt"] += 1
        judge.take(turkish_upper(word), flags, words, counts)
    _add_causatives(hunspell, judge.verbs, words, counts)
    return words


class _Filter:
    """The filter's view of the sources: the listed verbs, and the names (what nlptoolkit
    tags only as a name or zemberek lists as one; hunspell capitalises first names, which are
    often common words too: Umut, Onur, Işık)."""

    def __init__(
        self, entries: list[tuple[str, frozenset[str]]], zemberek: Zemberek, hunspell: Hunspell
    ) -> None:
        self.zemberek, self.hunspell = zemberek, hunspell
        self.verbs = {turkish_upper(w) for w, f in entries if "CL_FIIL" in f}
        tagged = {turkish_upper(w): f for w, f in entries if not f & POS_FLAGS}
        saved = {form for form, f in tagged.items() if self.rescued(form, f)}
        any_name = {form for form, f in tagged.items() if f & PROPER_FLAGS} - saved
        any_name |= zemberek.proper
        plain = {turkish_upper(w) for w, f in entries if f & POS_FLAGS and not f & PROPER_FLAGS}
        self.any_name = any_name
        self.names = (
            (any_name | hunspell.capital) - zemberek.common - plain - hunspell.lower - saved
        )

    def rescued(self, form: str, flags: frozenset[str]) -> str | None:
        """Why an entry tagged only as a proper noun is a common word after all, if it is."""
        hunspell, zemberek = self.hunspell, self.zemberek
        if "IS_OA" not in flags or not flags <= NAME_ONLY_FLAGS or form not in hunspell.lower:
            return None
        if form in zemberek.common:
            return "kept: tagged only as a name, common in zemberek and hunspell"
        m = ACTION_NOUN.search(form)
        if m is not None and form[: m.start()] in self.verbs and not looks_foreign(form):
            return "kept: tagged only as a name, an action noun (VARIŞ) in hunspell"
        return None

    def built_on_a_name(self, form: str, strict: bool) -> bool:
        """Tell whether `form` is a name + -lI/-cA (Turkish capitalises those: Adanalı, Türkçe).

        `strict`: the base may be a common word as well (IRAK-LI, MISIR-LI); for words that
        only hunspell vouches for.
        """
        m = NAME_SUFFIX.search(form)
        if m is None or m.start() < 3:
            return False
        return form[: m.start()] in (self.any_name if strict else self.names)

    def take(
        self, form: str, flags: frozenset[str], words: set[str], counts: dict[str, int]
    ) -> None:
        """Decide one entry (in game form): count it under the step that decides it and add
        the forms it keeps to ``words``."""
        if not flags & POS_FLAGS:
            why = self.rescued(form, flags)
            if why is None:
                counts["dropped: no part of speech (proper noun, abbreviation, markup)"] += 1
            else:
                counts[why] += 1
                words.add(form)
            return
        forms = [form, infinitive(form)] if "CL_FIIL" in flags else [form]
        common = any(f in self.zemberek.common for f in forms)
        lower = any(f in self.hunspell.lower for f in forms)
        dropped = self._dropped(form, forms, flags, common, lower)
        if dropped is not None:
            counts[dropped] += 1
            return
        if flags & PROPER_FLAGS:
            if common:
                counts["kept: also tagged proper noun, but a zemberek common word"] += 1
            else:
                counts["kept: also tagged proper noun, but a lower-case hunspell stem"] += 1
        if "CL_FIIL" in flags:
            counts["verbs (stem + infinitive)"] += 1
        for f in forms:
            if is_game_word(f, 2):
                words.add(f)
            else:
                counts["dropped forms: outside the 29-letter alphabet or < 2 letters"] += 1

    def _dropped(
        self, form: str, forms: list[str], flags: frozenset[str], common: bool, lower: bool
    ) -> str | None:
        """Why an entry with a part of speech is dropped (the first reason), if it is."""
        if flags & PROPER_FLAGS and not common and not lower:
            return (
                "dropped: tagged proper noun/abbreviation, common in neither zemberek nor hunspell"
            )
        if not common and not lower and any(f in self.zemberek.proper for f in forms):
            return "dropped: zemberek lists it only as a proper noun/abbreviation"
        if not common and self.built_on_a_name(form, strict=bool(flags & PROPER_FLAGS)):
            return "dropped: a name + -lI/-cA (ADANALI, TÜRKÇE)"
        if looks_foreign(form):
            return "dropped: Latin taxon, English spelling or no vowel"
        return None


def _add_causatives(
    hunspell: Hunspell, verbs: set[str], words: set[str], counts: dict[str, int]
) -> None:
    """Causatives are TDK headwords (eğlendirmek, çıkarmak, ağartmak) that nlptoolkit often
    leaves to morphology; take those whose infinitive hunspell lists and whose base verb is
    listed. Passives (-Il, -In) stay out: they are productive, rarely headwords."""
    for form in sorted(hunspell.lower):
        if not form.endswith(("MAK", "MEK")) or form in words:
            continue
        stem = form[:-3]
        m = CAUSATIVE.search(stem)
        if m is None or stem[: m.start()] not in verbs or infinitive(stem) != form:
            continue
        if is_game_word(form, 3) and not looks_foreign(stem):
            counts["added: causatives of listed verbs, from hunspell (EĞLENDİRMEK)"] += 1
            words.update((stem, form))


# nlptoolkit's part-of-speech flags in Turkish grammar's own words.
KIND_NAMES = {
    "CL_ISIM": "isim",
    "IS_ADJ": "sıfat",
    "IS_PUREADJ": "sıfat",
    "CL_FIIL": "fiil",
    "IS_ADVERB": "zarf",
    "IS_ZM": "zamir",
    "IS_INTERJ": "ünlem",
    "IS_CONJ": "bağlaç",
    "IS_POSTP": "edat",
    "IS_DET": "belirleyici",
    "IS_QUES": "soru",
    "IS_SAYI": "sayı",
    "IS_ORD": "sıra sayısı",
}
KIND_ORDER = tuple(dict.fromkeys(KIND_NAMES.values()))
NLPTOOLKIT_NAME = "nlptoolkit-dictionary"
ZEMBEREK_NAME = "zemberek"
HUNSPELL_NAME = "hunspell-tr"
ALLOW_NAME = "allow.txt"
SOURCE_ORDER = (NLPTOOLKIT_NAME, ZEMBEREK_NAME, HUNSPELL_NAME, ALLOW_NAME)


def word_info(
    words: Iterable[str],
    entries: Iterable[tuple[str, frozenset[str]]],
    zemberek: Zemberek,
    hunspell: Hunspell,
    allow: set[str],
) -> dict[str, tuple[list[str], list[str]]]:
    """Return {word: (kinds, sources)} for every written word.

    Kinds are nlptoolkit's tags of the headword (a verb's stem and infinitive are both fiil;
    a causative hunspell adds is a fiil too); sources are the lists that hold the word in this
    form: nlptoolkit (its headwords, verbs as stem and infinitive), zemberek's common lemmas,
    hunspell-tr's lower-case entries, the project's allow.txt.
    """
    wanted = set(words)
    kinds: dict[str, set[str]] = {w: set() for w in wanted}
    sources: dict[str, set[str]] = {w: set() for w in wanted}
    for word, flags in entries:
        form = turkish_upper(word)
        for f in [form, infinitive(form)] if "CL_FIIL" in flags else [form]:
            if f in wanted:
                sources[f].add(NLPTOOLKIT_NAME)
                kinds[f].update(KIND_NAMES[flag] for flag in flags if flag in KIND_NAMES)
    for w in wanted:
        if w in zemberek.common:
            sources[w].add(ZEMBEREK_NAME)
        if w in hunspell.lower:
            sources[w].add(HUNSPELL_NAME)
        if w in allow:
            sources[w].add(ALLOW_NAME)
        # The causatives select_words takes from hunspell: the infinitive and its stem.
        if not kinds[w] and NLPTOOLKIT_NAME not in sources[w]:
            inf = w if w.endswith(("MAK", "MEK")) else infinitive(w)
            causative = inf in hunspell.lower and infinitive(inf[:-3]) == inf
            if causative and inf in wanted and inf[:-3] in wanted:
                kinds[w].add("fiil")
                sources[w].add(HUNSPELL_NAME)
    return {
        w: (
            [k for k in KIND_ORDER if k in kinds[w]],
            [s for s in SOURCE_ORDER if s in sources[w]],
        )
        for w in wanted
    }
